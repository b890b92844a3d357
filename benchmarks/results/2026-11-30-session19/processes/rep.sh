#!/bin/bash
# rep.sh PROGDIR N GAP: N harness processes over baseline + the 12 candidates, GAP s apart
P=$1; N=$2; GAP=$3
WD=$(ls -d $P/wd/tuner-measure-*)
BATCH=$(ls $WD/c*.batch | head -1)
{ printf '_mlir_ciface_program__tuner_baseline\t%s/baseline.so\t\n' $WD; cut -f1,2 $BATCH | sed 's/$/\t/'; } > $P/exp.batch
mkdir -p $P/out$GAP
for i in $(seq 1 $N); do
  /work/main/build/bin/tuner-run --batch=$P/exp.batch $WD/spec.json --repetitions=5 --min-time=0.01 --timeout=60 --max-foreign-load=0.5 --retries=2 --core=-1 > $P/out$GAP/$i.json 2>/dev/null
  sleep $GAP
done
