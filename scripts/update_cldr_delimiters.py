"""Write pnp/text/cldr_delimiters.json, the quotation marks of every CLDR locale, from CLDR's JSON data.

Babel ships CLDR's numbers, plural rules and likely subtags but not its ``delimiters`` (the quotation
marks), so pnp keeps them in a file made from CLDR itself. To update it to a new CLDR release:

    npm pack cldr-misc-full@VERSION && tar xzf cldr-misc-full-VERSION.tgz
    python scripts/update_cldr_delimiters.py package VERSION

(``package/main/<locale>/delimiters.json``; locale ids are written with ``_``, as Babel writes them).
"""

import json
import sys
from pathlib import Path

FIELDS = ("quotationStart", "quotationEnd", "alternateQuotationStart", "alternateQuotationEnd")


def main(package: str, version: str) -> None:
    marks = {}
    for folder in sorted(Path(package, "main").iterdir()):
        (locale, data), = json.loads((folder / "delimiters.json").read_text("utf-8"))["main"].items()
        found = "".join(data["delimiters"][f] for f in FIELDS)
        if len(found) != len(FIELDS):
            raise SystemExit(f"{locale}: a quotation mark of more than one character: {found!r}")
        marks[locale.replace("-", "_")] = found
    out = {"source": f"Unicode CLDR {version}, main/<locale>/delimiters.json (npm package cldr-misc-full "
                     f"{version}); Unicode License v3",
           "fields": ", ".join(FIELDS), "delimiters": marks}
    target = Path(__file__).resolve().parents[1] / "pnp" / "text" / "cldr_delimiters.json"
    target.write_text(json.dumps(out, ensure_ascii=False, indent=0, sort_keys=True) + "\n", "utf-8")
    print(f"{target}: {len(marks)} locales")


if __name__ == "__main__":
    main(*sys.argv[1:3])
