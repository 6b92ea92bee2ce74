// Lab 05 MultipassReductions: four ways to reduce N floats of any size to one value entirely on
// the device; the host only launches passes until one value remains. The operator OP (sum, min or
// max) and its identity IDENTITY are chosen at build time, so one file serves all three. Elements
// at or past the active count are never read: where a tree needs a value there, it uses IDENTITY.
// The local size L is a power of two; where a kernel takes local float *scratch, it holds L floats.

// student: todo-1
// Fill in the TODOs, one method at a time (the lab's README.md explains each method). Combine
// values only with OP(a, b) and pad only with IDENTITY, never with + and 0, so that the same kernel
// computes the sum, the min and the max. Every work-item of a group must reach every barrier:
// never put a barrier inside an if that only some take.
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
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
    if (i < active - s)              // the global size was rounded up: the extra work-items idle
    {
        // TODO: a[i] takes in its partner, the element s places further on, combined with OP
        //   (the placeholder below keeps only IDENTITY). Afterwards a[0 .. s-1] holds the
        //   active elements folded in pairs; with an odd count the middle element a[s-1] has no
        //   partner and stays as it is. Why does no work-item read an element that another writes?
        a[i] = IDENTITY;
    }
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
        // TODO: acc becomes the OP of this work-item's window, the count elements from src[base]
        //   on (count is 8 except for a short last window). Never read src at or past active.
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
    ulong first = (ulong)get_group_id(0) * L * stride;   // ulong: L*stride can pass 2^32
    ulong idx   = first + (ulong)tid * stride;           // this work-item's element

    scratch[tid] = (idx < n) ? a[idx] : IDENTITY;        // past the end: the identity of OP
    barrier(CLK_LOCAL_MEM_FENCE);                        // every element is in scratch

    // student: todo-4
    // TODO 1: reduce scratch[0 .. L-1] into scratch[0] with OP: lab 04's rung 3 (sequential
    //   addressing), OP in place of +. Afterwards scratch[0] holds the OP of the group's L
    //   values; every work-item reaches each barrier.
    // student-end

    // The group's result goes to the first element of its span, which the next pass reads.
    if (tid == 0 && first < n)
        // student: todo-5
        // TODO 2: the group's result, in place of the placeholder IDENTITY. Can this write meet
        //   another work-item's read of the same element?
        a[first] = IDENTITY;
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
    // TODO 1: the same tree as in strided_pass: afterwards scratch[0] holds the OP of the group's
    //   L values, and every work-item has reached each barrier.
    // student-end

    if (tid == 0)
        // student: todo-7
        // TODO 2: the group's result, in place of the placeholder IDENTITY.
        dst[get_group_id(0)] = IDENTITY;
        // student-end
}
