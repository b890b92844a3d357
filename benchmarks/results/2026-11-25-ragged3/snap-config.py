import json, sys, math
seed = json.load(open(sys.argv[1])); space = json.load(open(sys.argv[2]))
out = {}
for p in space['parameters']:
    n = p['name']; vals = p.get('values')
    if n in seed and (vals is None or seed[n] in vals):
        out[n] = seed[n]
    elif n in seed and isinstance(seed[n], int) and n.startswith('fill_0'):
        out[n] = max(vals)  # the fused fill's tiles: the extent
    elif n in seed and isinstance(seed[n], int):
        out[n] = min(vals, key=lambda v: abs(math.log(v / seed[n])))
    else:
        out[n] = p['default']
json.dump(out, open(sys.argv[3], 'w'))
