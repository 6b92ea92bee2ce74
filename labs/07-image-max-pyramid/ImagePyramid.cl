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
// Fill in the TODOs (the lab's README.md draws the passes). Combine texels only with PICK(a, b),
// never with fmax or max directly, so that the build option -D MIN_INSTEAD turns every kernel
// into a minimum.
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
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
    // student: todo-2
    // TODO: dst's texel out gets the PICK of the 2 x 2 block of source texels whose top-left
    //   texel is 2 * out (the placeholder below keeps only that one texel). Invariant: every
    //   read stays inside the source level, src_size texels: where the block sticks out past an
    //   odd right or bottom edge, read the level's edge texel instead (README: "Odd sizes").
    const float keep = read_imagef(src, nearest, 2 * out).x;
    write_imagef(dst, out, (float4)(keep, 0.0f, 0.0f, 1.0f));
    // student-end
}

// Over 2 x 2: a 4 x 4 block per work-item, so half as many passes, each with 16 reads per item.
kernel void
max_pyramid_4x4(read_only image2d_t src, write_only image2d_t dst, const int2 src_size)
{
    const int2 out   = (int2)(get_global_id(0), get_global_id(1));
    if (out.x >= (src_size.x + 3) / 4 || out.y >= (src_size.y + 3) / 4)
        return;                           // past the output level: ceil(w/4) x ceil(h/4) texels
    // student: todo-3
    // TODO: as in max_pyramid_2x2, for the 4 x 4 block that starts at 4 * out: the PICK of its
    //   sixteen texels, every read inside the source level (two loops are shorter than sixteen
    //   reads).
    const float keep = read_imagef(src, nearest, 4 * out).x;
    write_imagef(dst, out, (float4)(keep, 0.0f, 0.0f, 1.0f));
    // student-end
}
