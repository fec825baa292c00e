#!/usr/bin/python3
"""tests/report/kcidb-validate.py SCHEMA DOC: checks DOC (a KCIDB document, as fsmatrix kcidb
writes it) against SCHEMA (tests/fixtures/kcidb/, KernelCI's published schema as kcidb-io
exports it) with Debian's python3-jsonschema, the way kcidb-io itself validates: JSON Schema
Draft-07 with format checking. Then what the schema cannot say: ids unique, every build's
checkout and every test's build present. Prints "valid: N checkouts, N builds, N tests", or
the first error as one line, and exits 1."""
import json
import sys

import jsonschema


def main():
    schema_path, doc_path = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(doc_path, encoding="utf-8") as f:
        doc = json.load(f)
    validator = jsonschema.Draft7Validator(
        schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in err.path) or "(document)"
        print(f"invalid: {where}: {err.message[:200]}")
        return 1
    ids = {}
    for kind in ("checkouts", "builds", "tests"):
        for obj in doc.get(kind, []):
            if (kind, obj["id"]) in ids:
                print(f"invalid: {kind}: id {obj['id']} twice")
                return 1
            ids[(kind, obj["id"])] = obj
    for b in doc.get("builds", []):
        if ("checkouts", b["checkout_id"]) not in ids:
            print(f"invalid: build {b['id']}: no checkout {b['checkout_id']}")
            return 1
    for t in doc.get("tests", []):
        if ("builds", t["build_id"]) not in ids:
            print(f"invalid: test {t['id']}: no build {t['build_id']}")
            return 1
    print("valid: %d checkouts, %d builds, %d tests" % tuple(
        len(doc.get(k, [])) for k in ("checkouts", "builds", "tests")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
