#!/usr/bin/env python3
"""md_tables.py SRC: every Markdown table of the repository's docs is
well formed: each row has as many cells as its header (a `|` inside
backticks is text, not a separator). A row pasted into the wrong table
shows up here instead of as a number under the wrong heading."""
import os
import subprocess
import sys


def cells(line):
    body = line.strip()
    body = body[1:-1] if body.endswith('|') else body[1:]
    n, code = 1, False
    for ch in body:
        if ch == '`':
            code = not code
        elif ch == '|' and not code:
            n += 1
    return n


def main(src):
    git = subprocess.run(['git', '-C', src, 'ls-files', '*.md'],
                         capture_output=True, text=True)
    files = git.stdout.split() if git.returncode == 0 else []
    if git.returncode != 0:  # not a git checkout: the tree minus builds
        for root, dirs, names in os.walk(src):
            dirs[:] = [d for d in dirs if not d.startswith(('build', '.'))]
            files += [os.path.relpath(os.path.join(root, n), src)
                      for n in names if n.endswith('.md')]
    if not files:
        print('no Markdown files found under', src)
        return 1
    bad, tables = 0, 0
    for f in files:
        header = None
        with open(f'{src}/{f}', encoding='utf-8') as fh:
            for no, line in enumerate(fh, 1):
                if not line.startswith('|'):
                    header = None
                    continue
                if header is None:
                    header, tables = cells(line), tables + 1
                    continue
                n = cells(line)
                if n != header:
                    print(f'{f}:{no}: {n} cells, its table\'s header has {header}')
                    bad += 1
    print(f'{len(files)} files, {tables} tables, {bad} bad rows')
    return 1 if bad else 0


sys.exit(main(sys.argv[1]))
