import json,glob,sys
import numpy as np
for P in sys.argv[2:]:
    files=sorted(glob.glob(f'{P}/out{sys.argv[1]}/*.json'),key=lambda f:int(f.split('/')[-1][:-5]))
    T=[]
    for f in files:
        best={}
        for l in open(f):
            try: e=json.loads(l)
            except: continue
            if 'median_seconds' in e:
                best[e['candidate']]=e['median_seconds']  # last attempt wins (retries)
        T.append([best[k] for k in sorted(best)])
    T=np.log(np.array(T))  # procs x (1+12)
    b=T[:,0]; c=T[:,1:]
    n=len(b)
    same=(b[:,None]-c)             # label same process
    cross=(np.roll(b,7)[:,None]-c) # baseline from another process
    # best of 2 procs separately (like rounds=2): pairs (2i,2i+1)
    cmean=c.mean(1)
    print(P, f'n={n} sd(b)={b.std():.3f} sd(cmean)={cmean.std():.3f} corr(b,cmean)={np.corrcoef(b,cmean)[0,1]:.2f}',
          f'label sd same={same.std(0).mean():.3f} cross={cross.std(0).mean():.3f}',
          f'cand sd={c.std(0).mean():.3f} centred={(c-cmean[:,None]).std(0).mean():.3f}')
