import json,glob,itertools,sys
import numpy as np
runs=sys.argv[1].split(',')
allruns=[d.rstrip('/') for d in glob.glob('*/') ]
def load(d):
    P={};S={}
    for l in open(f'{d}/programs-s0-of-1.jsonl'):
        r=json.loads(l);P[r['id']]=r['baseline_seconds']
    for l in open(f'{d}/samples-s0-of-1.jsonl'):
        r=json.loads(l)
        if r['status']!='ok':continue
        S[(r['program'],json.dumps(r['config'],sort_keys=True))]=r['median_seconds']
    return P,S
D={d:load(d) for d in allruns}
best={}
for d in allruns:
    for p,b in D[d][0].items(): best[p]=min(best.get(p,1e9),b)
def mape(a,b,mode):
    Pa,Sa=D[a];Pb,Sb=D[b]
    e=[]
    for k in Sa:
        if k not in Sb: continue
        p=k[0]
        if mode=='own': ba,bb=Pa[p],Pb[p]
        elif mode=='oracle': ba=bb=best[p]
        elif mode=='same': ba=bb=Pa[p]
        sa=ba/Sa[k]; sb=bb/Sb[k]
        e.append(abs(sa-sb)/sb)
    return np.mean(e)
for a,b in itertools.combinations(runs,2):
    print(a,b,*(f'{m}={mape(a,b,m):.3f}' for m in ['own','oracle','same']))
