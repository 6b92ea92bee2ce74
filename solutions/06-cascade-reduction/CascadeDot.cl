// Lab 06 CascadeDot: the dot product of dA and dB (n floats each) as a cascade. A fixed number of
// work-groups G (a multiple of the compute units; G*L is usually far below n) sweeps the arrays,
// in a grid-stride loop on a GPU or in one contiguous run per work-item on a CPU (-D CONTIGUOUS,
// chosen by the host from the device type): each work-item keeps running sums in registers, and
// only at the end does each work-group run one local tree and store one partial sum. The G
// partials are then added on the host, or on the device by SumPartials. The local size L is a
// power of two (1 .. 1024); scratch holds L floats. It must be correct for any n >= 1.

// student: todo-1
// student-end

// The tree both kernels end with, your own from lab 04: scratch[0 .. L-1] folded into scratch[0] by
// sequential addressing (stride s = L/2, L/4, ..., 1; the first s work-items fold the upper half of
// scratch[0 .. 2s-1] onto the lower half). Every work-item of the group calls it, its value in
// scratch[tid]; L is a power of two.
void tree_sum(local float *scratch, const uint tid, const uint L)
{
    // student: lab04-tree
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);           // this level is done before the next one reads it
    }
    // student-end
}

// Over lab 03: many float4 products per work-item, so the tree and a partial cost once per G*L*k elements, not per L.
kernel void
DotCascade(global const float *dA, global const float *dB, local float *scratch, global float *partials,
           const uint n)
{
    uint tid = get_local_id(0);     // this work-item's number in its group: 0 .. L-1
    uint gid = get_global_id(0);    // this work-item's number in the whole grid: 0 .. G*L-1
    uint L   = get_local_size(0);   // work-items in a work-group (a power of two)

    // Chunk i holds elements 4i .. 4i+3; acc is this work-item's running sum, four lanes at a time.
    // The body of each loop below is only loads and multiply-adds into private sums: no branch.
    float4 acc = (float4)(0.0f);
#ifdef CONTIGUOUS
    // slide: cascade-contiguous
    // student: todo-2
    // On a CPU (the host passes -D CONTIGUOUS) a work-item is a whole core: it sweeps one
    // contiguous run of chunks, whole cache lines that its prefetcher sees coming. The core waits
    // on memory, not on arithmetic, so what counts is how many lines it has asked for at once:
    // float8 loads into eight independent sums, four 64-byte lines of each array per step.
    uint chunks = n / 4, per_item = (chunks + get_global_size(0) - 1) / get_global_size(0);
    uint i = min(gid * per_item, chunks), end = min(i + per_item, chunks);
    float8 s0 = (float8)(0.0f), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
    for (; i + 16 <= end; i += 16) {          // 16 chunks = 64 floats of each array
        global const float *a = dA + 4 * i, *b = dB + 4 * i;
        s0 += vload8(0, a) * vload8(0, b);
        s1 += vload8(1, a) * vload8(1, b);
        s2 += vload8(2, a) * vload8(2, b);
        s3 += vload8(3, a) * vload8(3, b);
        s4 += vload8(4, a) * vload8(4, b);
        s5 += vload8(5, a) * vload8(5, b);
        s6 += vload8(6, a) * vload8(6, b);
        s7 += vload8(7, a) * vload8(7, b);
    }
    s0 = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    acc = s0.lo + s0.hi;
    for (; i < end; ++i)                      // the run's last 0 .. 15 chunks
        acc += vload4(i, dA) * vload4(i, dB);
    // student-end
    // slide-end
#else
    // slide: cascade-grid-stride
    // student: todo-3
    // On a GPU: a grid-stride loop. Neighbouring work-items load neighbouring chunks (coalesced),
    // then the whole grid steps on by G*L chunks.
    for (uint i = get_global_id(0); i < n / 4; i += get_global_size(0))
        acc += vload4(i, dA) * vload4(i, dB);
    // student-end
    // slide-end
#endif
    float sum = (acc.x + acc.y) + (acc.z + acc.w);

    // student: todo-4
    // The scalar tail: the last n % 4 elements (0 .. 3 of them), one each for the first
    // work-items. A grid-stride loop too, so a grid of fewer than 3 work-items still gets them all;
    // it counts k = 0 .. n % 4 - 1, so nothing can wrap past 2^32 when n is close to it.
    for (uint k = gid; k < n % 4; k += get_global_size(0))
        sum += dA[4 * (n / 4) + k] * dB[4 * (n / 4) + k];
    // student-end

    scratch[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);               // every work-item's sum is in scratch

    tree_sum(scratch, tid, L);           // your lab 04 tree (TODO 0)

    if (tid == 0)
        partials[get_group_id(0)] = scratch[0];
}

// Over adding the partials on the host: the final combine stays on the device (ONE work-group of L).
kernel void
SumPartials(global const float *partials, global float *result, local float *scratch, const uint count)
{
    uint tid = get_local_id(0);     // this work-item's number in the (only) group: 0 .. L-1
    uint L   = get_local_size(0);   // work-items in the group (a power of two)

    float sum = 0.0f;
    // student: todo-5
    // Each work-item adds partials[tid], partials[tid + L], ... (count may be larger than L).
    for (uint t = tid; t < count; t += L)
        sum += partials[t];
    // student-end

    scratch[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);

    tree_sum(scratch, tid, L);

    if (tid == 0)
        result[0] = scratch[0];
}
