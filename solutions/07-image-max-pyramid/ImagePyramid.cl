// Lab 07 ImagePyramid: the maximum of a W x H float image by passes over OpenCL images. Each pass
// writes a smaller image whose texel is the maximum of a block of the source: 2 x 2 texels
// (ceil(w/2) x ceil(h/2) texels out) or 4 x 4 texels (ceil(w/4) x ceil(h/4) out). The host
// ping-pongs two images until 1 x 1 remains. Built with -D MIN_INSTEAD, the same kernels keep the
// minimum instead.
//
// One work-item per output texel (x, y) = (get_global_id(0), get_global_id(1)). The host rounds
// the global size up to whole 16 x 16 work-groups, so the work-items past the output's right and
// bottom edge must write nothing. The ping-pong images are the size of the first pass's output,
// so later levels fill only their top-left corner; src_size is the size of the source level, the
// active region of src. Past it lie texels of an earlier level, or the +infinity (-infinity for
// the minimum) that the host filled the images with, so no block may reach beyond it.

// student: todo-1
// student-end

#ifdef MIN_INSTEAD
#define PICK(a, b) fmin((a), (b))
#else
#define PICK(a, b) fmax((a), (b))
#endif

// Integer coordinates (no normalising), the edge texel for a coordinate past the image's own edge,
// and no filtering: read_imagef returns the stored value of exactly one texel.
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// The seed's pass: four samples, one 2 x 2 block per output texel; ceil(log2(max(W, H))) passes.
kernel void
max_pyramid_2x2(read_only image2d_t src, write_only image2d_t dst, const int2 src_size)
{
    const int2 out   = (int2)(get_global_id(0), get_global_id(1));
    if (out.x >= (src_size.x + 1) / 2 || out.y >= (src_size.y + 1) / 2)
        return;                           // past the output level: ceil(w/2) x ceil(h/2) texels
    // slide: pyramid-2x2
    // student: todo-2
    const int2 first = 2 * out;           // the block's top-left texel: always inside the source
    const int2 last  = src_size - 1;      // the source level's last column and row

    // At an odd right or bottom edge the block sticks out by one: clamping repeats the edge
    // texel, which changes neither a maximum nor a minimum.
    const float a = read_imagef(src, nearest, first).x;
    const float b = read_imagef(src, nearest, min(first + (int2)(1, 0), last)).x;
    const float c = read_imagef(src, nearest, min(first + (int2)(0, 1), last)).x;
    const float d = read_imagef(src, nearest, min(first + (int2)(1, 1), last)).x;

    write_imagef(dst, out, (float4)(PICK(PICK(a, b), PICK(c, d)), 0.0f, 0.0f, 1.0f));
    // student-end
    // slide-end
}

// Over 2 x 2: a 4 x 4 block per work-item, so half as many passes, each with 16 reads per item.
kernel void
max_pyramid_4x4(read_only image2d_t src, write_only image2d_t dst, const int2 src_size)
{
    const int2 out   = (int2)(get_global_id(0), get_global_id(1));
    if (out.x >= (src_size.x + 3) / 4 || out.y >= (src_size.y + 3) / 4)
        return;                           // past the output level: ceil(w/4) x ceil(h/4) texels
    // student: todo-3
    const int2 first = 4 * out;
    const int2 last  = src_size - 1;

    float best = read_imagef(src, nearest, first).x;
    for (int dy = 0; dy < 4; ++dy)
        for (int dx = 0; dx < 4; ++dx)
        {
            const float v = read_imagef(src, nearest, min(first + (int2)(dx, dy), last)).x;
            best = PICK(best, v);
        }

    write_imagef(dst, out, (float4)(best, 0.0f, 0.0f, 1.0f));
    // student-end
}
