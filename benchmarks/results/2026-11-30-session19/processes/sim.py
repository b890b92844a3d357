import json,glob,sys
import numpy as np
def load(P,gap='0'):
    files=sorted(glob.glob(f'{P}/out{gap}/*.json'),key=lambda f:int(f.split('/')[-1][:-5]))
    T=[]
    for f in files:
        best={}
        for l in open(f):
            try: e=json.loads(l)
            except: continue
            if 'median_seconds' in e: best[e['candidate']]=e['median_seconds']
        T.append([best[k] for k in sorted(best)])
    return np.log(np.array(T))
def est(G, kind, k):
    # G: consecutive processes (k of them) for candidates; baseline processes: separate group Gb
    b=G[:,0]; c=G[:,1:]
    if kind=='min': return b.min()-c.min(0)        # baseline in same procs
    if kind=='ratio-med': return np.median(b[:,None]-c,0)
    if kind=='ratio-mean': return np.mean(b[:,None]-c,0)
    if kind=='ratio-atmin': return (b[:,None]-c)[c.argmin(0),np.arange(c.shape[1])]
def mape(x,y): return np.mean(np.abs(np.exp(x-y)-1))
res={}
for P in sys.argv[1:]:
    T=load(P); n=len(T)
    for k in [1,2,3,4]:
        groups=[T[i:i+k] for i in range(0,n-k+1,k)]
        # independent: pair group i with group i+2 (skip one)
        for kind in ['sep-min','min','ratio-med','ratio-mean','ratio-atmin']:
            vals=[]
            for i in range(len(groups)-3):
                A,B=groups[i],groups[i+3]
                if kind=='sep-min':
                    # baseline from groups i+1 / i+4 (separate processes), min over k
                    Ab=groups[i+1][:,0].min(); Bb=groups[(i+4)%len(groups)][:,0].min()
                    ea=Ab-A[:,1:].min(0); eb=Bb-B[:,1:].min(0)
                else:
                    ea=est(A,kind,k); eb=est(B,kind,k)
                vals.append(mape(ea,eb))
            res.setdefault((kind,k),[]).append(np.mean(vals))
for (kind,k),v in sorted(res.items()):
    print(f'{kind:12s} k={k} '+' '.join(f'{x:.3f}' for x in v)+f'  mean {np.mean(v):.3f}')
