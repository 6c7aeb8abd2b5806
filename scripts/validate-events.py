#!/usr/bin/env python3
"""Validates event envelopes against schemas/: the envelope itself, then the payload
against <type>.v<schema>.schema.json. Input: files holding a JSON array of envelopes
(as `memery history --json` prints). Exit 0 when all are valid, 1 otherwise."""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent / "schemas"


def registry():
    resources = []
    for path in SCHEMAS.glob("*.schema.json"):
        schema = json.loads(path.read_text())
        Draft202012Validator.check_schema(schema)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


def main(paths):
    reg = registry()
    validators = {}

    def validator(name):
        if name not in validators:
            path = SCHEMAS / f"{name}.schema.json"
            if not path.exists():
                return None
            validators[name] = Draft202012Validator(json.loads(path.read_text()), registry=reg)
        return validators[name]

    problems, count = [], 0
    for path in paths:
        for envelope in json.loads(pathlib.Path(path).read_text()):
            count += 1
            where = f"{path}: seq {envelope.get('seq')} ({envelope.get('type')})"
            for error in validator("envelope").iter_errors(envelope):
                problems.append(f"{where}: envelope: {error.message}")
            name = f"{envelope.get('type')}.v{envelope.get('schema')}"
            payload_validator = validator(name)
            if payload_validator is None:
                problems.append(f"{where}: no schema {name}.schema.json")
                continue
            for error in payload_validator.iter_errors(envelope.get("payload")):
                problems.append(f"{where}: payload: {error.message} at {list(error.absolute_path)}")
    for problem in problems:
        print(problem)
    print(f"{count} events checked, {len(problems)} problems")
    return 1 if problems or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
