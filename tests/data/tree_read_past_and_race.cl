// Lab 04 TreeReductions: the tree-reduction ladder for an integer sum, five rungs from the naive
// interleaved tree to the fully unrolled one. Each kernel sums the ints of in[0 .. n-1] that
// belong to its work-group into out[group]; elements at or past n count as 0 (the sum's identity),
// so n need not be a multiple of the work-group size. The host runs a kernel again on out until
// one value remains. The local size L is a power of two (1 .. 4096); scratch holds L ints.

// student: todo-1
// student-end

// The host always builds with -D WG_SIZE=<local size> (reduce5 needs it at compile time); the
// default only lets the file build on its own, e.g. in an editor or a syntax check.
#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#if WG_SIZE < 1 || WG_SIZE > 4096 || (WG_SIZE & (WG_SIZE - 1)) != 0
#error "WG_SIZE must be a power of two from 1 to 4096"
#endif

// Rung 1, the baseline: interleaved addressing with %; active work-items are scattered (divergent).
kernel void
reduce1_interleaved_mod(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);     // this work-item's number in its group: 0 .. L-1
    uint gid = get_global_id(0);    // the element of in loaded here
    uint L   = get_local_size(0);   // work-items in a work-group (a power of two)

    scratch[tid] = (gid < n) ? in[gid] : 0;     // past the end: 0, the identity of +
    barrier(CLK_LOCAL_MEM_FENCE);               // every element is in scratch

    // student: todo-2
    // Stride s = 1, 2, 4, ...: work-items whose tid is a multiple of 2*s add in the value s places
    // to their right. After log2(L) levels scratch[0] holds the group's sum.
    // slide: rung1-mod
    for (uint s = 1; s < L; s *= 2)
    {
        if (tid % (2 * s) == 0)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);           // this level is done before the next one reads it
    }
    // student-end
    // slide-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}

// Rung 2: no %, and a strided index keeps the active work-items contiguous (less divergence).
kernel void
reduce2_interleaved_strided(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint gid = get_global_id(0);
    uint L   = get_local_size(0);

    scratch[tid] = (gid < n) ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-3
    // Stride s = 1, 2, 4, ...: work-item tid adds pair number tid of this level, at index 2*s*tid.
    for (uint s = 1; s < L; s *= 2)
    {
        uint index = 2 * s * tid;
        if (index < L)
            scratch[index] += scratch[index + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // student-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}

// Rung 3: sequential addressing: active work-items read contiguous scratch (no bank conflicts).
kernel void
reduce3_sequential(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint gid = get_global_id(0);
    uint L   = get_local_size(0);

    scratch[tid] = (gid < n) ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-4
    // Stride s = L/2, L/4, ..., 1: the first s work-items fold the upper half of scratch[0 .. 2s-1]
    // onto the lower half.
    // slide: rung3-sequential
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // student-end
    // slide-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}

// Rung 4: the first add happens during the load: half the groups, no work-item idle at level one.
kernel void
reduce4_first_add(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint L   = get_local_size(0);
    // slide: rung4-first-add
    uint gid = get_group_id(0) * (2 * L) + tid;   // the first of this work-item's two elements

    // student: todo-5
    scratch[tid] = in[gid] + in[gid + L];
    // student-end
    // slide-end
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-6
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
    }
    // student-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}

// Rung 5: the tree fully unrolled for a compile-time WG_SIZE: no loop counter, no dead levels.
kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
reduce5_unrolled(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint L   = WG_SIZE;                           // == get_local_size(0), known to the compiler
    uint gid = get_group_id(0) * (2 * L) + tid;

    // student: todo-7
    int a = (gid < n) ? in[gid] : 0;
    int b = (gid + L < n) ? in[gid + L] : 0;
    scratch[tid] = a + b;
    // student-end
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-8
    // WG_SIZE is a constant, so each if on it is decided at compile time and every work-item
    // reaches every barrier that remains. Every level keeps its barrier: OpenCL promises no
    // lock-step execution within a warp or wavefront.
    if (WG_SIZE >= 4096) { if (tid < 2048) scratch[tid] += scratch[tid + 2048]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >= 2048) { if (tid < 1024) scratch[tid] += scratch[tid + 1024]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >= 1024) { if (tid <  512) scratch[tid] += scratch[tid +  512]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=  512) { if (tid <  256) scratch[tid] += scratch[tid +  256]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=  256) { if (tid <  128) scratch[tid] += scratch[tid +  128]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=  128) { if (tid <   64) scratch[tid] += scratch[tid +   64]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=   64) { if (tid <   32) scratch[tid] += scratch[tid +   32]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=   32) { if (tid <   16) scratch[tid] += scratch[tid +   16]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=   16) { if (tid <    8) scratch[tid] += scratch[tid +    8]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=    8) { if (tid <    4) scratch[tid] += scratch[tid +    4]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=    4) { if (tid <    2) scratch[tid] += scratch[tid +    2]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=    2) { if (tid <    1) scratch[tid] += scratch[tid +    1]; barrier(CLK_LOCAL_MEM_FENCE); }
    // student-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}
