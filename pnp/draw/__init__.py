"""Painting: the only package that imports reportlab. It turns layout elements (mm) into PDF pages."""

from reportlab import rl_config

# streams compressed only, not also spelt in ASCII85 (a quarter bigger, and time to encode): PDFs are
# binary files anyway (https://docs.reportlab.com/reportlab/userguide/ch2_graphics/, rl_settings)
rl_config.useA85 = 0
