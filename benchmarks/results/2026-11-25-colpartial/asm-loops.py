import re,sys
lines=open(sys.argv[1]).read().split('\n')
labels={}
for i,l in enumerate(lines):
    m=re.match(r'^(\.?[\w.$]+):',l)
    if m: labels[m.group(1)]=i
loops=[]
for j,l in enumerate(lines):
    m=re.match(r'\s+j\w+\s+(\.?[\w.$]+)',l)
    if m and m.group(1) in labels and labels[m.group(1)]<j:
        loops.append((labels[m.group(1)],j))
# innermost: loops containing no other loop
inner=[(a,b) for (a,b) in loops if not any(a<=c and d<=b and (c,d)!=(a,b) for (c,d) in loops)]
for a,b in inner:
    body=[x.strip() for x in lines[a:b+1] if x.startswith('\t') and not x.strip().startswith('.') and not x.strip().startswith('#')]
    fma=sum('vfmadd' in x for x in body)
    if fma==0: continue
    spill=sum('rsp' in x for x in body)
    zmm=sum('zmm' in x for x in body); ymm=sum('ymm' in x for x in body); xmm=sum('xmm' in x for x in body)
    bc=sum('broadcast' in x for x in body)
    ld=sum(('vmovups' in x or 'vmovaps' in x) and '(' in x for x in body)
    ins=[x for x in body if 'vfmadd' in x]
    widths=set(('zmm' if 'zmm' in x else 'ymm' if 'ymm' in x else 'xmm') for x in ins)
    print(f"lines {a}-{b}: {len(body)} instr, {fma} fma {sorted(widths)}, {bc} bcast, {ld} vec mov w/ mem, {spill} rsp refs")
