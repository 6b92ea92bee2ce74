// Lab 05 MultipassReductions: four ways to reduce N floats of any size to one value entirely on
// the device; the host only launches passes until one value remains. The operator OP (sum, min or
// max) and its identity IDENTITY are chosen at build time, so one file serves all three. Elements
// at or past the active count are never read: where a tree needs a value there, it uses IDENTITY.
// The local size L is a power of two; where a kernel takes local float *scratch, it holds L floats.

// student: todo-1
// student-end

// The host always builds with -D "OP(a,b)=..." -D IDENTITY=... (sum, min or max); the defaults only
// let the file build on its own, e.g. in an editor or a syntax check.
#ifndef OP
#define OP(a, b) ((a) + (b))
#define IDENTITY 0.0f
#endif

// Method 1, the baseline: fold the upper half onto the lower half in place, ceil(log2 N) passes.
kernel void
pairwise_pass(global float *a, const uint active)
{
    // Launch: global size (active - s) rounded up to L; the next pass has active = s, until 1.
    uint i = get_global_id(0);
    uint s = active - active / 2;    // (active + 1) / 2 without overflow: the elements that stay

    // student: todo-2
    // a[i] takes in its partner a[i + s]; with an odd count the middle element a[s-1] has no
    // partner and simply stays. Reads are at s or above, writes below s: no work-item's write
    // meets another's read.
    if (i < active - s)
        a[i] = OP(a[i], a[i + s]);
    // student-end
}

// Method 2: windows of 8, not pairs: ceil(log8 N) passes and ~1.14 N reads in all instead of ~2 N.
kernel void
window8_pass(global const float *src, global float *dst, const uint active)
{
    // Launch: global size ceil(active/8) rounded up to L; the host ping-pongs two buffers and the
    // next pass has active = ceil(active/8), until 1.
    uint i = get_global_id(0);
    uint windows = active / 8 + (active % 8 != 0);   // ceil(active / 8) without overflow

    if (i < windows)
    {
        uint base  = 8 * i;                          // < active, so no overflow
        uint count = min(8u, active - base);         // the last window may be short
        float acc = IDENTITY;
        // student: todo-3
        for (uint k = 0; k < count; ++k)
            acc = OP(acc, src[base + k]);
        // student-end
        dst[i] = acc;
    }
}

// Method 3: a work-group tree over L elements per pass, not 8: ceil(log_L N) passes, in place.
kernel void
strided_pass(global float *a, local float *scratch, const uint n, const uint stride)
{
    // Launch: stride = 1, L, L^2, ... with ceil(n / (L*stride)) groups, until L*stride >= n;
    // the result is then in a[0]. A pass leaves its results L*stride apart: the next stride.
    uint tid = get_local_id(0);
    uint L   = get_local_size(0);
    // slide: strided-index
    ulong first = (ulong)get_group_id(0) * L * stride;   // ulong: L*stride can pass 2^32
    ulong idx   = first + (ulong)tid * stride;           // this work-item's element

    scratch[tid] = (idx < n) ? a[idx] : IDENTITY;        // past the end: the identity of OP
    barrier(CLK_LOCAL_MEM_FENCE);                        // every element is in scratch
    // slide-end

    // student: todo-4
    // Sequential addressing: s = L/2, L/4, ..., 1; the first s work-items fold the upper half of
    // scratch[0 .. 2s-1] onto the lower half.
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] = OP(scratch[tid], scratch[tid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);                    // this level is done before the next
    }
    // student-end

    // The group's result goes to the first element of its span, which the next pass reads.
    if (tid == 0 && first < n)
        // student: todo-5
        // Every read of this group happened before the barriers above; other groups read elsewhere.
        a[first] = scratch[0];
        // student-end
}

// Method 4: the input is never overwritten, and every pass reads contiguous elements, not strided.
kernel void
pingpong_pass(global const float *src, global float *dst, local float *scratch, const uint active)
{
    // Launch: ceil(active/L) groups; the first pass reads the input, later ones ping-pong two
    // scratch buffers; the next pass has active = ceil(active/L), until 1.
    uint tid = get_local_id(0);
    uint gid = get_global_id(0);
    uint L   = get_local_size(0);

    scratch[tid] = (gid < active) ? src[gid] : IDENTITY;
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-6
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] = OP(scratch[tid], scratch[tid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // student-end

    if (tid == 0)
        // student: todo-7
        dst[get_group_id(0)] = scratch[0];
        // student-end
}
