// Shared by the three kernels of the radix sort: one binding layout, the
// element count (capped by the pass's capacity) and the digit of a key.
layout(std430, binding = kSortCount) readonly buffer Count { uint countFromGpu; };

uint sortCount()
{
    return min(params.capacity, countFromGpu);
}

uint digitOf(uint key)
{
    return (key >> params.shift) & 255u;
}
