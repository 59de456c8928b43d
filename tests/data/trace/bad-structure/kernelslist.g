kernel-1.traceg
kernel-2.traceg
kernel-3.traceg
kernel-4.traceg
kernel-5.traceg
kernel-6.traceg
kernel-7.traceg
kernel-8.traceg
