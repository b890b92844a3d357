#!/usr/bin/env python3
# probe.py DATASET_DIR PROGRAM [BIN]: apply and lower each sampled config alone, time it, count one-lane vector ops
import json,sys,subprocess,time,re,os,collections
d,prog=sys.argv[1],sys.argv[2]; b=sys.argv[3] if len(sys.argv)>3 else os.environ.get('BIN', 'build/bin')
w=os.path.join(os.environ.get('WORK', '/tmp/probe'), prog); os.makedirs(w,exist_ok=True)
for l in open(f'{d}/programs-s0-of-1.jsonl'):
    p=json.loads(l)
    if p['id']==prog: open(f'{w}/p.mlir','w').write(p['mlir']); break
i=0
for l in open(f'{d}/samples-s0-of-1.jsonl'):
    s=json.loads(l)
    if s['program']!=prog: continue
    json.dump(s['config'],open(f'{w}/c{i}.json','w'))
    t=time.time()
    r=subprocess.run([f'{b}/tuner-opt',f'{w}/p.mlir',f'--tuner-apply=config={w}/c{i}.json','-o',f'{w}/c{i}.mlir'],capture_output=True,text=True,timeout=300)
    ta=time.time()-t
    txt=open(f'{w}/c{i}.mlir').read() if r.returncode==0 else ''
    one=collections.Counter(m for m in re.findall(r'vector<([0-9x]+x1x?[a-z0-9]*)>',txt) if re.match(r'.*x1x[a-z]',m))
    t=time.time()
    try:
        r2=subprocess.run([f'{b}/tuner-opt',f'{w}/c{i}.mlir','--tuner-lower-cpu=openmp=true','-o',f'{w}/c{i}.ll.mlir'],capture_output=True,text=True,timeout=int(os.environ.get('LT','150')))
        tl=time.time()-t; rc=r2.returncode
    except subprocess.TimeoutExpired:
        tl=-1; rc='timeout'
    tc=-2
    if rc==0 and os.environ.get('CLANG'):
        subprocess.run(['/usr/lib/llvm-22/bin/mlir-translate','--mlir-to-llvmir',f'{w}/c{i}.ll.mlir','-o',f'{w}/c{i}.ll'],capture_output=True)
        t=time.time()
        try:
            subprocess.run(['/usr/lib/llvm-22/bin/clang','-O3','-march=native','-shared','-fPIC','-Wno-override-module',f'{w}/c{i}.ll','-o',f'{w}/c{i}.so'],capture_output=True,timeout=100); tc=time.time()-t
        except subprocess.TimeoutExpired: tc=-1
    sz=os.path.getsize(f'{w}/c{i}.ll.mlir') if os.path.exists(f'{w}/c{i}.ll.mlir') else 0
    print(f"c{i} {s['status']} speedup={s.get('speedup',0):.3f} apply={ta:.1f}s lower={tl:.1f}s rc={rc} clang={tc:.1f}s llvm={sz/1e6:.1f}MB onelane={dict(one.most_common(3))}",flush=True)
    i+=1
