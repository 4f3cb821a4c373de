// Branches on uniform values that lavapipe keeps as branches. Lavapipe (Mesa
// 22.3) specialises a shader on up to four uniform values its branches test
// ("inline uniforms"): at every draw that binds the uniform buffers again
// (each part's block is such a bind) it folds those values in, optimises and
// compiles the shader anew, with no cache, and keeps every copy until the
// pipeline is destroyed. part_flat.vert, whose review shading branches on
// the tint mode, the highlight and the unlit flag, so grew the process by
// 2.7 MiB a frame of the tank and doubled its frame time
// (tests/render/tst_render_steady). A condition that also depends on a value
// the compiler cannot fold is left alone: uniformBranch(x) adds opaqueZero,
// which the shader's main() sets first from one of its inputs and which is 0
// wherever the shader's output can be drawn.
int opaqueZero = 0;

int uniformBranch(int value)
{
    return value + opaqueZero;
}

float uniformBranch(float value)
{
    return value + float(opaqueZero);
}
