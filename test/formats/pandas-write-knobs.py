"""Writes the knob table (JSON on stdin) with pandas' to_csv and its knobs, one file per knob.

Run by test/formats/csv-writers-pandas-knobs.test.ts; the output directory is its only argument.
"""
import csv
import datetime
import decimal
import json
import sys

import pandas as pd

NULLABLE = {'int64': 'Int64', 'int32': 'Int32', 'boolean': 'boolean'}


def column(spec):
    kind, values = spec['type'], spec['values']
    if kind in NULLABLE:
        cast = (lambda v: v == 'true') if kind == 'boolean' else int
        return pd.array([None if v is None else cast(v) for v in values], dtype=NULLABLE[kind])
    if kind == 'float64':
        return [float('nan') if v is None else float(v) for v in values]
    if kind.startswith('decimal'):
        return [None if v is None else decimal.Decimal(v) for v in values]
    if kind == 'date':
        return [None if v is None else datetime.date.fromisoformat(v) for v in values]
    if kind == 'timestamp':
        return pd.to_datetime(values, utc=True)
    if kind == 'timestamp_ntz':
        return pd.to_datetime(values)
    return values


KNOBS = {
    'default.csv': {},
    'default.csv.gz': {},
    'quote-all.csv': {'quoting': csv.QUOTE_ALL},
    'quote-nonnumeric.csv': {'quoting': csv.QUOTE_NONNUMERIC},
    'crlf.csv': {'lineterminator': '\r\n'},
    'bom.csv': {'encoding': 'utf-8-sig'},
    'iso-offset.csv': {'date_format': '%Y-%m-%dT%H:%M:%S.%f%z'},
    'na-null.csv': {'na_rep': 'NULL'},
    'pipe.csv': {'sep': '|'},
}


def main(out):
    specs = json.load(sys.stdin)
    frame = pd.DataFrame({spec['name']: column(spec) for spec in specs})
    for name, knobs in KNOBS.items():
        frame.to_csv(f'{out}/{name}', index=False, **knobs)


main(sys.argv[1])
