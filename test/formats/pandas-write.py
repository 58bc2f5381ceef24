"""Writes the writer table (JSON on stdin) with pandas, every form the text-writer tests read.

Run by test/formats/text-writers-pandas.test.ts; the output directory is its only argument.
"""
import csv
import datetime
import decimal
import json
import sys

import pandas as pd

NULLABLE = {'int64': 'Int64', 'int32': 'Int32', 'float32': 'Float32', 'boolean': 'boolean'}


def column(spec):
    kind, values = spec['type'], spec['values']
    if kind in NULLABLE:
        return pd.array([None if v is None else int(v) if kind.startswith('int') else v for v in values], dtype=NULLABLE[kind])
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


def main(out):
    specs = json.load(sys.stdin)
    frame = pd.DataFrame({spec['name']: column(spec) for spec in specs})
    frame.to_csv(f'{out}/default.csv', index=False)
    frame.to_csv(f'{out}/default.csv.gz', index=False)
    frame.to_csv(f'{out}/quote-all.csv', index=False, quoting=csv.QUOTE_ALL)
    frame.to_json(f'{out}/iso-us.jsonl', orient='records', lines=True, date_format='iso', date_unit='us')
    frame.to_json(f'{out}/iso-us.jsonl.gz', orient='records', lines=True, date_format='iso', date_unit='us')
    frame.to_json(f'{out}/iso.jsonl', orient='records', lines=True, date_format='iso')
    frame.to_json(f'{out}/epoch.jsonl', orient='records', lines=True)
    frame.assign(placed_at=frame['placed_at'].dt.tz_localize(None)).to_csv(f'{out}/naive.csv', index=False)


main(sys.argv[1])
