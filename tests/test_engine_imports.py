"""The rules engine stands alone: importing it pulls in neither pnp nor reportlab."""

import subprocess
import sys


def test_engine_imports_without_pnp_or_reportlab():
    code = ("import sys, rules_engine.shadow_throne as e; "
            "e.Rules; e.run_scenario; e.simulate; e.transcript_lines; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('pnp', 'reportlab', 'yaml', 'click')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
