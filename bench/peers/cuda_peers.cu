// The GPU peers of bench_render, called directly (no CuPy or PyTorch in
// between: their index generation and copies are not the peer's cost):
//   sort  CUB's DeviceRadixSort::SortPairs and SortKeys on 32-bit keys with
//         32-bit values, at the widths a RigLens frame sorts (all 32 bits:
//         the tile keys; the low 16: the quads' depth keys) and at 262k, 1M
//         and 16M pairs; each launched plainly and as a CUDA graph.
//   GNM   cuBLAS's fp16 GEMV (cublasGemmEx, n = 1, fp32 accumulation): the
//         (3V x E) basis times E coefficients, the GNM pass's expression
//         term, with the basis bytes over the time.
//   copy  a 1 GiB device-to-device copy: the board's read+write bandwidth.
// Keys are bench_render's (murmur3's finaliser of the index, the high bits
// kept for 16-bit keys; and the LCG sequence of the earlier tables). Each
// time is the median of 200 launches timed with CUDA events after 20
// warm-up launches, inputs already on the GPU.
// Built and run on the GPU's host by tools/bench-cuda-peers.sh (nvcc).
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cub/cub.cuh>
#include <functional>
#include <vector>

#include "sort_keys.h"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: cuBLAS status %d\n", what, int(s));
    std::exit(1);
  }
}

// Median GPU time of `launch` on `stream`, in milliseconds.
double medianMs(cudaStream_t stream, const std::function<void()>& launch, int repeat = 200) {
  for (int i = 0; i < 20; ++i) launch();
  check(cudaStreamSynchronize(stream), "warm-up");
  cudaEvent_t start, end;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&end), "event");
  std::vector<float> times;
  for (int i = 0; i < repeat; ++i) {
    check(cudaEventRecord(start, stream), "record");
    launch();
    check(cudaEventRecord(end, stream), "record");
    check(cudaEventSynchronize(end), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, end), "elapsed");
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(end);
  std::nth_element(times.begin(), times.begin() + repeat / 2, times.end());
  return times[std::size_t(repeat / 2)];
}

// `launch` captured once into a graph; the graph's launches timed.
double graphMs(cudaStream_t stream, const std::function<void()>& launch) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "capture");
  launch();
  check(cudaStreamEndCapture(stream, &graph), "end capture");
  check(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0), "instantiate");
  const double ms = medianMs(stream, [&] { check(cudaGraphLaunch(exec, stream), "graph launch"); });
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  return ms;
}

void sortPeers(cudaStream_t stream, std::uint32_t n, int bits, bool lcg = false) {
  std::vector<std::uint32_t> keys, values;
  riglens::bench::makeSortKeys(n, bits, lcg, keys, values);
  std::uint32_t *keysIn, *keysOut, *valuesIn, *valuesOut;
  const std::size_t bytes = std::size_t(n) * 4;
  for (std::uint32_t** p : {&keysIn, &keysOut, &valuesIn, &valuesOut}) check(cudaMalloc(p, bytes), "cudaMalloc");
  check(cudaMemcpy(keysIn, keys.data(), bytes, cudaMemcpyHostToDevice), "upload");
  check(cudaMemcpy(valuesIn, values.data(), bytes, cudaMemcpyHostToDevice), "upload");
  std::size_t pairTemp = 0, keyTemp = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, pairTemp, keysIn, keysOut, valuesIn, valuesOut, int(n), 0, bits, stream);
  cub::DeviceRadixSort::SortKeys(nullptr, keyTemp, keysIn, keysOut, int(n), 0, bits, stream);
  void* temp;
  const std::size_t tempBytes = std::max(pairTemp, keyTemp);
  check(cudaMalloc(&temp, tempBytes), "cudaMalloc temp");
  const auto pairs = [&] {
    std::size_t t = tempBytes;
    check(cub::DeviceRadixSort::SortPairs(temp, t, keysIn, keysOut, valuesIn, valuesOut, int(n), 0, bits, stream),
          "SortPairs");
  };
  const auto onlyKeys = [&] {
    std::size_t t = tempBytes;
    check(cub::DeviceRadixSort::SortKeys(temp, t, keysIn, keysOut, int(n), 0, bits, stream), "SortKeys");
  };
  const double pairsMs = medianMs(stream, pairs), pairsGraphMs = graphMs(stream, pairs);
  const double keysMs = medianMs(stream, onlyKeys), keysGraphMs = graphMs(stream, onlyKeys);
  // The result is checked once, so a broken call cannot pass as fast.
  std::vector<std::uint32_t> sorted(n);
  check(cudaMemcpy(sorted.data(), keysOut, bytes, cudaMemcpyDeviceToHost), "readback");
  if (!std::is_sorted(sorted.begin(), sorted.end())) {
    std::fprintf(stderr, "CUB's output is not sorted (n=%u bits=%d)\n", n, bits);
    std::exit(1);
  }
  std::printf("peer sort n=%u bits=%d%s: CUB SortPairs %.4f ms (graph %.4f), SortKeys %.4f ms (graph %.4f)\n", n, bits,
              lcg ? " (LCG keys)" : "", pairsMs, pairsGraphMs, keysMs, keysGraphMs);
  for (void* p : {static_cast<void*>(keysIn), static_cast<void*>(keysOut), static_cast<void*>(valuesIn),
                  static_cast<void*>(valuesOut), temp})
    cudaFree(p);
}

void gemvPeer(cudaStream_t stream, cublasHandle_t blas, int vertices, int expressions) {
  const int rows = 3 * vertices;
  std::vector<__half> basis(std::size_t(rows) * std::size_t(expressions));
  std::vector<__half> coeff(static_cast<std::size_t>(expressions));
  std::uint32_t x = 777;
  for (auto& b : basis) b = __float2half(float((x = x * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f);
  for (auto& c : coeff) c = __float2half(float((x = x * 1664525u + 1013904223u) >> 8) / 16777216.0f);
  __half *a, *v, *y;
  check(cudaMalloc(&a, basis.size() * 2), "cudaMalloc");
  check(cudaMalloc(&v, coeff.size() * 2), "cudaMalloc");
  check(cudaMalloc(&y, std::size_t(rows) * 2), "cudaMalloc");
  check(cudaMemcpy(a, basis.data(), basis.size() * 2, cudaMemcpyHostToDevice), "upload");
  check(cudaMemcpy(v, coeff.data(), coeff.size() * 2, cudaMemcpyHostToDevice), "upload");
  check(cublasSetStream(blas, stream), "cublasSetStream");
  const float alpha = 1.0f, beta = 0.0f;
  // Row-major (rows x E) is column-major (E x rows): y = A^T v in cuBLAS's terms.
  const auto gemv = [&] {
    check(cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, rows, 1, expressions, &alpha, a, CUDA_R_16F, expressions, v,
                       CUDA_R_16F, expressions, &beta, y, CUDA_R_16F, rows, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  };
  const double ms = medianMs(stream, gemv);
  const double mb = double(basis.size()) * 2 / 1e6;
  std::printf("peer GNM V=%d E=%d: cuBLAS fp16 GEMV %.4f ms (%.1f MB basis, %.2f TB/s)\n", vertices, expressions, ms,
              mb, mb / 1e3 / ms);
  cudaFree(a);
  cudaFree(v);
  cudaFree(y);
}

void copyPeer(cudaStream_t stream) {
  const std::size_t bytes = std::size_t(1) << 30;
  void *src, *dst;
  check(cudaMalloc(&src, bytes), "cudaMalloc");
  check(cudaMalloc(&dst, bytes), "cudaMalloc");
  check(cudaMemset(src, 1, bytes), "memset");
  const double ms = medianMs(
      stream, [&] { check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream), "copy"); }, 20);
  std::printf("peer copy 1 GiB: %.3f ms (%.2f TB/s read+write)\n", ms, 2.0 * double(bytes) / 1e9 / ms);
  cudaFree(src);
  cudaFree(dst);
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device");
  int driver = 0, runtime = 0, blasVersion = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cublasHandle_t blas;
  check(cublasCreate(&blas), "cublasCreate");
  cublasGetVersion(blas, &blasVersion);
  std::printf("device: %s; CUDA driver API %d, runtime %d; CUB %d; cuBLAS %d\n", prop.name, driver, runtime,
              CUB_VERSION, blasVersion);
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  for (int bits : {32, 16})
    for (std::uint32_t n : {262144u, 1u << 19, 1u << 20, 16u << 20}) sortPeers(stream, n, bits);
  for (std::uint32_t n : {262144u, 1u << 20}) sortPeers(stream, n, 32, true);
  for (int e : {383, 30}) gemvPeer(stream, blas, 17821, e);
  copyPeer(stream);
  cublasDestroy(blas);
  cudaStreamDestroy(stream);
  return 0;
}
