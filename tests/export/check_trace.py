#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a Perfetto trace that `latctl export` wrote, decoded by
`protoc --decode=perfetto.protos.Trace perfetto_trace.proto`, against the
result it came from. One line per fault on stdout, exit 1 if any:
  check_trace.py RESULT.json DECODED.txt"""
import json
import re
import sys

TOKEN = re.compile(r'\s*(?:([A-Za-z_][\w.]*)\s*(\{|:)|(\})|("(?:[^"\\]|\\.)*"|[^\s{}]+))')


def parse(text):
    """The text format as nested dicts: key -> list of values."""
    stack, pos, key = [{}], 0, None
    while True:
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        name, op, close, value = m.groups()
        if name and op == '{':
            child = {}
            stack[-1].setdefault(name, []).append(child)
            stack.append(child)
        elif name:
            key = name
        elif close:
            stack.pop()
        elif value is not None:
            v = value
            if v.startswith('"'):
                v = bytes(v[1:-1], 'utf-8').decode('unicode_escape')
            else:
                try:
                    v = float(v) if '.' in v or 'e' in v.lower() else int(v)
                except ValueError:
                    pass
            stack[-1].setdefault(key, []).append(v)
    return stack[0]


def one(d, k, default=None):
    v = d.get(k)
    return v[0] if v else default


def main():
    doc = json.load(open(sys.argv[1]))
    trace = parse(open(sys.argv[2]).read())
    faults = []
    packets = trace.get('packet', [])
    names, tracks, slices, stacks = {}, {}, [], {}
    snap = [p for p in packets if 'clock_snapshot' in p]
    if not snap:
        faults.append('no clock snapshot')
    else:
        ids = {one(c, 'clock_id') for c in snap[0]['clock_snapshot'][0].get('clocks', [])}
        if ids != {6, 3}:
            faults.append('the clock snapshot has clocks %s, not BOOTTIME and MONOTONIC' % ids)
    for p in packets:
        for i in p.get('interned_data', []):
            for e in i.get('event_names', []):
                names[one(e, 'iid')] = one(e, 'name')
        for t in p.get('track_descriptor', []):
            named = one(t, 'name') or one(one(t, 'thread', {}), 'thread_name') or \
                one(one(t, 'process', {}), 'pid')
            if named is None:
                faults.append('track %s has no name' % one(t, 'uuid'))
            tracks[one(t, 'uuid')] = t
        for e in p.get('track_event', []):
            ts, track, kind = one(p, 'timestamp'), one(e, 'track_uuid'), one(e, 'type')
            if track not in tracks:
                faults.append('an event on track %s before its descriptor' % track)
            st = stacks.setdefault(track, [])
            if kind == 'TYPE_SLICE_BEGIN':
                name = names.get(one(e, 'name_iid')) or one(e, 'name')
                ann = {one(a, 'name'): (one(a, 'int_value') if 'int_value' in a else
                                        one(a, 'double_value') if 'double_value' in a else
                                        one(a, 'string_value')) for a in e.get('debug_annotations', [])}
                s = {'name': name, 'begin': ts, 'depth': len(st), 'ann': ann, 'parent': st[-1] if st else None}
                if st and ts < st[-1]['begin']:
                    faults.append('a slice begins before its parent')
                st.append(s)
                slices.append(s)
            elif kind == 'TYPE_SLICE_END':
                if not st:
                    faults.append('a slice ends that never began')
                    continue
                s = st.pop()
                s['end'] = ts
                if s['parent'] and ts > s['parent'].get('end', float('inf')):
                    faults.append('a span outlasts its iteration')
    for track, st in stacks.items():
        if st:
            faults.append('%d slices still open on track %s' % (len(st), track))
    top = [s for s in slices if s['depth'] == 0 and 'ordinary' not in s['ann']]
    ordinary = [s for s in slices if s['depth'] == 0 and 'ordinary' in s['ann']]
    its = doc['slow']['iterations']
    if len(top) != len(its):
        faults.append('%d iteration slices for %d slow iterations listed' % (len(top), len(its)))
    hz = doc['clock']['snapshot']['tsc_hz']
    by_index = {it['index']: it for it in its}
    for s in top:
        it = by_index.get(s['ann'].get('index'))
        if it is None:
            faults.append('a slice of iteration %s the result does not list' % s['ann'].get('index'))
            continue
        if s['name'] != it['primary']:
            faults.append('iteration %d: slice %s, primary %s' % (it['index'], s['name'], it['primary']))
        want = it['duration_ticks'] * 1e9 / hz
        if abs((s['end'] - s['begin']) - want) > 2:
            faults.append('iteration %d: %d ns long in the trace, %.1f in the result'
                          % (it['index'], s['end'] - s['begin'], want))
    listed = set(by_index)
    context = {}
    for w in doc.get('context', {}).get('windows', []):
        for k, d in enumerate(w['duration_ticks']):
            if w['from'] + k not in listed:
                context[w['from'] + k] = d
    if len(ordinary) != len(context):
        faults.append('%d ordinary slices for %d ordinary iterations in the context'
                      % (len(ordinary), len(context)))
    for s in ordinary:
        d = context.get(s['ann'].get('index'))
        if d is None:
            faults.append('an ordinary slice of iteration %s the context does not hold' % s['ann'].get('index'))
        elif abs((s['end'] - s['begin']) - max(d * 1e9 / hz, 1)) > 2:
            faults.append('ordinary iteration %s: %d ns, %.1f in the result'
                          % (s['ann'].get('index'), s['end'] - s['begin'], d * 1e9 / hz))
    for s in slices:
        p = s['parent']
        if p and not (p['begin'] <= s['begin'] <= s['end'] <= p['end']):
            faults.append('span %s not inside its parent %s' % (s['name'], p['name']))
    kernel = [s for s in slices if s['depth'] > 0]
    spans = sum(len(it.get('spans', [])) for it in its)
    print('# %d packets, %d tracks, %d slow iteration slices, %d ordinary, %d kernel spans (%d in the result)'
          % (len(packets), len(tracks), len(top), len(ordinary), len(kernel), spans))
    for f in faults[:20]:
        print(f)
    return 1 if faults else 0


if __name__ == '__main__':
    sys.exit(main())
