#!/usr/bin/env python3
"""Validates edits against schemas/edit.schema.json. Input: files of JSON Lines, one edit
each (as `memery apply` reads them). Exit 0 when all are valid, 1 otherwise."""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent / "schemas"


def main(paths):
    resources = []
    for path in SCHEMAS.glob("*.schema.json"):
        schema = json.loads(path.read_text())
        resources.append((schema["$id"], Resource.from_contents(schema)))
    edit_schema = json.loads((SCHEMAS / "edit.schema.json").read_text())
    Draft202012Validator.check_schema(edit_schema)
    validator = Draft202012Validator(edit_schema, registry=Registry().with_resources(resources))
    checked = problems = 0
    for path in paths:
        for number, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
            if not line.strip():
                continue
            checked += 1
            error = best_match(validator.iter_errors(json.loads(line)))
            if error is not None:
                problems += 1
                print(f"{path}:{number}: {line}: {error.message}")
    print(f"{checked} edits checked, {problems} problems")
    return 1 if problems or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
