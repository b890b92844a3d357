// Host slow-spell probe (session 18): every 0.25 s for T seconds, times a
// 64 MiB read, 8x an 8 MiB read, 200x a 256 KiB read (throughput-bound) and
// a 20M-step dependent multiply-add chain (latency-bound), in ms.
//   gcc -O2 -o probe probe.c && ./probe 300 > probe.txt; ./summary.py probe.txt
// Run 2026-11-29 from 20:40 UTC on the quiet 2-core Zen 5 VM: probe.txt is its
// first 205 s (840 probes), before a build on the same VM overlapped it.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static float sumbuf(const float*a,size_t n){float s0=0,s1=0,s2=0,s3=0;for(size_t i=0;i<n;i+=4){s0+=a[i];s1+=a[i+1];s2+=a[i+2];s3+=a[i+3];}return s0+s1+s2+s3;}
volatile float sink;
int main(int argc,char**argv){
  double T=atof(argv[1]);
  size_t big=64<<20, l3=8<<20, l2=256<<10;
  float*a=aligned_alloc(64,big);for(size_t i=0;i<big/4;i++)a[i]=i%7;
  double t0=now();
  while(now()-t0<T){
    double s,r[4];
    s=now(); for(int k=0;k<1;k++) sink=sumbuf(a,big/4); r[0]=now()-s;
    s=now(); for(int k=0;k<8;k++) sink=sumbuf(a,l3/4); r[1]=now()-s;
    s=now(); for(int k=0;k<200;k++) sink=sumbuf(a,l2/4); r[2]=now()-s;
    s=now(); {double x=1.0; for(long k=0;k<20000000;k++) x=x*1.0000001+1e-9; sink=x;} r[3]=now()-s;
    printf("%.2f %.4f %.4f %.4f %.4f\n",now()-t0,r[0]*1e3,r[1]*1e3,r[2]*1e3,r[3]*1e3); fflush(stdout);
    struct timespec ts={0,200000000}; nanosleep(&ts,0);
  }
}
