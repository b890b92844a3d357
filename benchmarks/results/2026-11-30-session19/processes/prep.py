import json,sys,os,subprocess
run,pid=sys.argv[1],sys.argv[2]
B='/work/main/build/bin'
os.makedirs(pid,exist_ok=True)
for l in open(f'/tmp/r18/{run}/programs-s0-of-1.jsonl'):
    r=json.loads(l)
    if r['id']==pid: prog=r
open(f'{pid}/prog.mlir','w').write(prog['mlir'])
json.dump(prog['space'],open(f'{pid}/space.json','w'))
cands=[]
for l in open(f'/tmp/r18/{run}/samples-s0-of-1.jsonl'):
    s=json.loads(l)
    if s['program']!=pid or s['status']!='ok': continue
    i=len(cands)
    json.dump(s['config'],open(f'{pid}/cfg{i}.json','w'))
    out=subprocess.run([f'{B}/tuner-opt',f'{pid}/prog.mlir',f'--tuner-apply=config={pid}/cfg{i}.json space={pid}/space.json','-o',f'{pid}/cand{i}.mlir'],capture_output=True,text=True)
    if out.returncode: print(out.stderr); sys.exit(1)
    cands.append(f'{pid}/cand{i}.mlir')
print(len(cands))
