"""Writes JSON lines of text values (DuckDB's export of the held-out source table) as CSV with
Python's csv module: python3 heldout-csv-write.py SOURCE TARGET QUOTING ESCAPECHAR ENCODING KINDS,
KINDS being int, decimal, float or str per column, comma-separated."""
import csv
import json
import sys
from decimal import Decimal

source, target, quoting, escapechar, encoding, kinds = sys.argv[1:7]
convert = {'int': int, 'decimal': Decimal, 'float': float, 'str': str}
kinds = [convert[kind] for kind in kinds.split(',')]
with open(source, encoding='utf-8') as rows, open(target, 'w', newline='', encoding=encoding) as out:
    writer = csv.writer(out, quoting=getattr(csv, quoting), escapechar=escapechar or None)
    header = None
    for line in rows:
        row = json.loads(line)
        if header is None:
            header = list(row)
            writer.writerow(header)
        writer.writerow([None if row[name] is None else kind(row[name]) for name, kind in zip(header, kinds)])
