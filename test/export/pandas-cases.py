"""Writes one-row JSON Lines files with pandas, for test/export/json-schema-engine.test.ts.

Reads [{file, row: {column: [kind, value]} | null}] on stdin; the output directory is the only
argument. Each value becomes what pandas holds for that kind, so pandas prints it its own way.
"""
import decimal
import json
import sys

import pandas as pd


def value(kind, raw):
    if kind == 'null':
        return None
    if kind == 'integer':
        return int(raw)
    if kind == 'decimal':
        return decimal.Decimal(raw)
    if kind in ('date', 'wall'):
        return pd.Timestamp(raw)
    if kind == 'instant':
        return pd.Timestamp(raw).tz_convert('UTC')
    return raw


def main(out):
    for spec in json.load(sys.stdin):
        if spec['row'] is None:
            continue
        frame = pd.DataFrame({name: [value(kind, raw)] for name, (kind, raw) in spec['row'].items()})
        frame.to_json(f"{out}/{spec['file']}", orient='records', lines=True, date_format='iso')


main(sys.argv[1])
