#include <stdio.h>
#include <time.h>
int main(){ struct timespec a,b; unsigned long x=1, n=2000000000UL;
clock_gettime(CLOCK_THREAD_CPUTIME_ID,&a);
for(unsigned long i=0;i<n;i++){ __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x)); }
clock_gettime(CLOCK_THREAD_CPUTIME_ID,&b);
double s=(b.tv_sec-a.tv_sec)+1e-9*(b.tv_nsec-a.tv_nsec);
printf("%.2f GHz (4 dependent adds per iteration, %lu)\n", 4.0*n/s/1e9, x); }
