// Lab 06 CascadeDot: the dot product of dA and dB (n floats each) as a cascade. A fixed number of
// work-groups G (a multiple of the compute units; G*L is usually far below n) sweeps the arrays,
// in a grid-stride loop on a GPU or in one contiguous run per work-item on a CPU (-D CONTIGUOUS,
// student: todo-1
// chosen by the host from the device type): each work-item keeps running sums in registers, and
// only at the end does each work-group run one local tree and store one partial sum. The G
// partials are then added on the host, or on the device by SumPartials. The local size L is a
// power of two (1 .. 1024); scratch holds L floats. It must be correct for any n >= 1.
//
// Fill in the TODOs (1a and 1b, 2, 3), then run:   build/bin/06-cascade-reduction --check
// (the lab's README.md explains the cascade step by step).
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
// student-end

// Over lab 03: many float4 products per work-item, so the tree and a partial cost once per G*L*k elements, not per L.
kernel void
DotCascade(global const float *dA, global const float *dB, local float *scratch, global float *partials,
           const uint n)
{
    uint tid = get_local_id(0);     // this work-item's number in its group: 0 .. L-1
    uint gid = get_global_id(0);    // this work-item's number in the whole grid: 0 .. G*L-1
    uint L   = get_local_size(0);   // work-items in a work-group (a power of two)

    // student: todo-2
    float4 acc = (float4)(0.0f);    // this work-item's running sum, four lanes at a time

    // student-end
#ifdef CONTIGUOUS
    // student: todo-3
    // TODO 1a (CPU devices: the host passes -D CONTIGUOUS): one contiguous run of chunks per
    //   work-item (chunk i = elements 4i .. 4i+3), with several loads in flight.
    //   - split the n / 4 chunks into get_global_size(0) runs of equal length (the last ones may
    //     be shorter or empty); work-item gid sweeps run gid, so a CPU core streams through whole
    //     cache lines
    //   - keep at least four independent sums: e.g. four float4 sums, each step adding the
    //     products of chunks i, i+1, i+2 and i+3 (vload4(i, dA) * vload4(i, dB), ...) into one
    //     each; then the run's last 0 .. 3 chunks one by one, and all the sums into acc. With a
    //     single sum every add waits for the one before, and the core asks for too few cache
    //     lines at a time (README: "More loads in flight"). On one core, as graded, a single
    //     sum runs at about 0.8 of the solution's speed: right at the edge of full points.
    // student-end
#else
    // student: todo-4
    // TODO 1b (GPUs): the grid-stride loop over float4 chunks.
    //   - start at chunk get_global_id(0), stop before chunk n / 4,
    //     step by get_global_size(0) (every work-item of the whole grid)
    //   - vload4(i, dA) and vload4(i, dB) load chunk i; add their product into acc
    //   - keep the body to that one line: no if, no barrier. Neighbouring work-items then load
    //     neighbouring chunks: the loads coalesce.
    // student-end
#endif
// student: todo-5

// student-end
    float sum = (acc.x + acc.y) + (acc.z + acc.w);

    // student: todo-6
    // TODO 2: the scalar tail: the last n % 4 elements, indices 4 * (n / 4) + k for k = 0 .. n % 4 - 1.
    //   - work-item gid takes k = gid, if that is below n % 4: add the product of that element of
    //     dA and dB into sum (make it a loop over k stepping by get_global_size(0), so a grid of
    //     fewer than 3 work-items still covers them all; counting k rather than the index itself
    //     keeps the counter far from 2^32 when n is close to it)
    // student-end

    scratch[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);               // every work-item's sum is in scratch

    // Sequential addressing: stride s = L/2, L/4, ..., 1; the first s work-items fold the upper
    // half of scratch[0 .. 2s-1] onto the lower half.
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);           // this level is done before the next one reads it
    }

    if (tid == 0)
        partials[get_group_id(0)] = scratch[0];
}

// Over adding the partials on the host: the final combine stays on the device (ONE work-group of L).
kernel void
SumPartials(global const float *partials, global float *result, local float *scratch, const uint count)
{
    uint tid = get_local_id(0);     // this work-item's number in the (only) group: 0 .. L-1
    uint L   = get_local_size(0);   // work-items in the group (a power of two)

    // student: todo-7
    // student-end
    float sum = 0.0f;
    // student: todo-8

    // TODO 3: add partials[tid], partials[tid + L], partials[tid + 2L], ... (all below count)
    //   into sum: count is G, and G may be larger than L.
    // student-end

    scratch[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (tid == 0)
        result[0] = scratch[0];
}
