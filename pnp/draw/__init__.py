"""Painting: the only package that imports reportlab. It turns layout elements (mm) into PDF pages."""
