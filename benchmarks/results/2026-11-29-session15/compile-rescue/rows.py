import re,sys,glob,os
def rows(path):
    tot=0; one=0
    for line in open(path):
        ts=re.findall(r'vector<((?:\d+x)+)[a-z]',line)
        best=0;b1=0
        for t in ts:
            dims=[int(x) for x in t.strip('x').split('x')]
            # last dim is the element dim; dims here exclude it? pattern keeps all dims
            r=1
            for x in dims[:-1]: r*=x
            if r>best: best=r; b1 = r if dims[-1]==1 else 0
        tot+=best; one+=b1
    return tot,one
for d in sys.argv[1:]:
    for f in sorted(glob.glob(d+'/c*.mlir'),key=lambda s:int(re.search(r'/c(\d+)',s).group(1))):
        if '.ll.' in f: continue
        print(f, *rows(f))
