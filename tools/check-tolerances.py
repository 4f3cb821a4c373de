#!/usr/bin/env python3
"""Fails when a test compares against a numeric literal used as a tolerance.

A tolerance is a named constant with its reason (riglens/core/base/
tolerances.h for the shared ones, a constexpr beside the test for a test's
own): a bare number says neither what arithmetic it absorbs nor why it is
that size, and nothing finds it when the arithmetic changes. Flagged in
tests/ (comments and strings ignored, statements joined across lines):

  - the tolerance argument of QCOMPARE_NEAR / QCOMPARE_NEAR_ALL given as a number;
  - an image comparison's tolerance (compareWithGolden / compareImages) given
    as a braced list of numbers;
  - a number in e-notation (1e-5, 2.5e-3f) on the right of <, <=, > or >=;
  - a non-zero number on the right of a comparison whose statement measures a
    difference (abs(, fabs(, Diff, distance(, length(, error, Error).

  tools/check-tolerances.py            (run by tools/test.sh)
"""
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
NUMBER = r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?[fF]?"
COMPARISON = re.compile(r"(?<![<>=-])(<=?|>=?)(?![<>=])\s*\(?\s*(" + NUMBER + r")(?![\w.])")
E_NOTATION = re.compile(r"[eE][-+]?\d")
MEASURES = re.compile(r"\b(?:std::)?f?abs\(|Diff|\bdistance\(|\blength\(|[eE]rror")
NEAR_MACRO = re.compile(r"\b(QCOMPARE_NEAR|QCOMPARE_NEAR_ALL)\s*\(")
IMAGE_COMPARE = re.compile(r"\b(compareWithGolden|compareImages)\s*\(")
BRACED_NUMBERS = re.compile(r"^\s*\{\s*" + NUMBER + r"(?:\s*,\s*" + NUMBER + r")*\s*\}\s*$")
LITERAL_ONLY = re.compile(r"^\s*(?:double|float)?\(?\s*" + NUMBER + r"\s*\)?\s*$")


def code_only(text):
    """The text with comments and string/char literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c in "\"'":
            if c == '"' and i > 0 and text[i - 1] == "R":  # raw string R"delim( ... )delim"
                k = text.find("(", i)
                end = ")" + text[i + 1:k] + '"'
                j = text.find(end, k)
                j = n if j < 0 else j + len(end)
            else:
                j = i + 1
                while j < n and text[j] != c:
                    j += 2 if text[j] == "\\" else 1
                j += 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c); i = j
        else:
            out.append(c); i += 1
    return "".join(out)


def arguments(text, start):
    """The top-level arguments of the call whose '(' is at text[start]."""
    depth, args, current = 0, [], []
    for c in text[start:]:
        if c in "([{":
            depth += 1
            if depth == 1: continue
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append("".join(current)); return args
        elif c == "," and depth == 1:
            args.append("".join(current)); current = []; continue
        current.append(c)
    return args


def findings(path):
    code = code_only(path.read_text(encoding="utf-8", errors="replace"))
    line_of = lambda offset: code.count("\n", 0, offset) + 1
    found = []
    for m in NEAR_MACRO.finditer(code):
        args = arguments(code, m.end() - 1)
        if len(args) >= 3 and LITERAL_ONLY.match(args[2]):
            found.append((line_of(m.start()), f"{m.group(1)} with the tolerance {args[2].strip()}"))
    for m in IMAGE_COMPARE.finditer(code):
        args = arguments(code, m.end() - 1)
        if args and BRACED_NUMBERS.match(args[-1]):
            found.append((line_of(m.start()), f"{m.group(1)} with the tolerance {args[-1].strip()}"))
    start = 0
    for statement in re.split(r"(;|\{|\})", code):
        measures = MEASURES.search(statement)
        for m in COMPARISON.finditer(statement):
            number = m.group(2)
            if E_NOTATION.search(number) or (measures and float(number.rstrip("fF")) != 0.0):
                found.append((line_of(start + m.start()), f"compared with the literal {number}"))
        start += len(statement)
    return found


def main():
    failed = 0
    for path in sorted(REPO.glob("tests/**/*")):
        if path.suffix not in (".cpp", ".h") or not path.is_file():
            continue
        for line, what in findings(path):
            print(f"{path.relative_to(REPO)}:{line}: {what}: name it (tolerances.h, or a constexpr with its reason)",
                  file=sys.stderr)
            failed += 1
    if failed:
        print(f"[tolerances] {failed} literal tolerance(s) in tests/", file=sys.stderr)
        return 1
    print("[tolerances] every tolerance in tests/ is a named constant")
    return 0


if __name__ == "__main__":
    sys.exit(main())
