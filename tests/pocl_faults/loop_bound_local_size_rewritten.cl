// The rewrite that avoids the fault: the local size read into a variable before the first barrier.
// Launched with the global and local sizes that common/data/known_device_faults.json gives it;
// work-item 0 of each work-group writes the group's result, which the table also gives.
kernel void reproducer(global uint *out) {
    local uint scratch[64];
    uint tid = get_local_id(0);
    uint L = get_local_size(0);
    scratch[tid] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 1; s < L; s *= 2) {
        if (tid % (2 * s) == 0) scratch[tid] += 1;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0) out[get_group_id(0)] = scratch[0];
}
