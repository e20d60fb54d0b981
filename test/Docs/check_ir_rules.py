#!/usr/bin/env python3
"""Checks docs/ir-rules.md against the sources and the tests.

- every rule ID in the doc appears in lib/ (unless it is not checkable or
  holds by construction) and in a test file under test/ (unless not checkable);
- every [ir-...], [ver-...] and [ext-...] ID used in lib/ is in the doc;
- every negative test the doc names exists;
- prints the number of MUST rules and how many have a negative test.

usage: check_ir_rules.py SOURCE_ROOT
"""
import os
import re
import sys

# In lib/, an ID is used as "[id]" at the end of a message or as "id" (the
# rule argument of onnx-validate's diagnostics).
ID_RE = re.compile(r'[\["]((?:ir|ver|ext)-[a-z0-9-]+)[\]"]')
MUST_LEVELS = {"MUST", "MUST NOT", "SHALL", "REQUIRED"}


def read_rules(doc):
    rules = {}
    for line in open(doc, encoding="utf-8"):
        m = re.match(r"\|\s*`((?:ir|ver|ext)-[a-z0-9-]+)`\s*\|(.*)\|\s*$", line)
        if not m:
            continue
        cells = [c.strip() for c in m.group(2).split("|")]
        if len(cells) != 5:
            sys.exit(f"{doc}: row of {m.group(1)} has {len(cells) + 1} cells, not 6")
        level, _source, _rule, where, tests = cells
        if m.group(1) in rules:
            sys.exit(f"{doc}: {m.group(1)} is listed twice")
        rules[m.group(1)] = {"level": level, "where": where, "tests": tests}
    return rules


def files_under(root, exts):
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            if name.endswith(exts):
                yield os.path.join(dirpath, name)


def main():
    src = sys.argv[1]
    rules = read_rules(os.path.join(src, "docs", "ir-rules.md"))
    lib_text = {p: open(p, encoding="utf-8", errors="replace").read()
                for p in files_under(os.path.join(src, "lib"), (".cpp", ".h", ".td"))}
    this = os.path.abspath(__file__)
    test_text = "\n".join(
        open(p, encoding="utf-8", errors="replace").read()
        for p in files_under(os.path.join(src, "test"),
                             (".mlir", ".textproto", ".onnxtxt", ".test", ".py"))
        if os.path.abspath(p) != this)
    all_lib = "\n".join(lib_text.values())
    errors = []

    for rid, rule in rules.items():
        uncheckable = rule["where"].startswith("not check")
        by_construction = rule["where"].startswith("by construction")
        used = f"[{rid}]" in all_lib or f'"{rid}"' in all_lib
        if not uncheckable and not by_construction and not used:
            errors.append(f"{rid}: enforced by '{rule['where']}' but no diagnostic in lib/ carries [{rid}]")
        if not uncheckable and not re.search(r"\b" + re.escape(rid) + r"\b", test_text):
            errors.append(f"{rid}: no test under test/ mentions it")
        if not rule["tests"].startswith("none"):
            for path in re.findall(r"[A-Za-z]+/[\w./-]+\.(?:mlir|textproto|test|onnxtxt)", rule["tests"]):
                if not os.path.exists(os.path.join(src, "test", path)):
                    errors.append(f"{rid}: its test {path} does not exist")

    for path, text in lib_text.items():
        for rid in sorted(set(ID_RE.findall(text))):
            if rid not in rules:
                errors.append(f"{os.path.relpath(path, src)}: [{rid}] is not in docs/ir-rules.md")

    musts = [r for r, v in rules.items() if v["level"] in MUST_LEVELS]
    tested = [r for r in musts if not rules[r]["tests"].startswith("none")]
    untested = [r for r in musts if r not in tested]
    print(f"rules: {len(rules)}")
    print(f"MUST rules: {len(musts)}, with a negative test: {len(tested)}")
    for r in untested:
        print(f"  without a negative test: {r} ({rules[r]['tests']})")
    for e in errors:
        print(f"error: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
