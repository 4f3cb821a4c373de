#!/usr/bin/env python3
"""The GPU peers of bench_render, timed on the same board in the same run.

  sort:  CUB's radix sort through CuPy (cupy.argsort) and PyTorch (torch.sort,
         stable): 32-bit keys with their indices, as GpuRadixSort sorts.
  GNM:   cuBLAS fp16 GEMV through PyTorch: the (3V x E) fp16 basis times the
         coefficients, what the GNM pass's expression term computes, and the
         basis bytes over the time (the bandwidth bound is the basis read once).
Each time is the median of 200 launches measured with CUDA events, inputs on
the GPU already (bench_render's gpu_*_ms are the same: GPU time of the pass).
Usage: python3 bench/peers/gpu_peers.py  (needs a CUDA GPU, torch and cupy).
"""
import statistics

import cupy
import torch


def median_ms(run, repeat=200):
    times = []
    for _ in range(10):
        run()
    torch.cuda.synchronize()
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    print("device:", torch.cuda.get_device_name())
    for n in (262144, 1 << 20):
        keys = torch.randint(0, 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
        ck = cupy.asarray(keys)
        with cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            cub = median_ms(lambda: cupy.argsort(ck))
        ts = median_ms(lambda: torch.sort(keys, stable=True))
        print(f"peer sort n={n}: cupy.argsort (CUB) {cub:.4f} ms, torch.sort stable (CUB) {ts:.4f} ms")
    V, E = 17821, 383
    basis = torch.randn(3 * V, E, device="cuda").half()
    coeff = torch.randn(E, device="cuda").half()
    gemv = median_ms(lambda: torch.mv(basis, coeff))
    mb = basis.numel() * 2 / 1e6
    print(f"peer GNM V={V} E={E}: cuBLAS fp16 GEMV {gemv:.4f} ms ({mb:.1f} MB basis, {mb / 1e3 / gemv:.2f} TB/s)")
    big = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(big)
    copy = median_ms(lambda: dst.copy_(big), 20)
    print(f"peer copy 1 GiB: {copy:.3f} ms ({2 * (1 << 30) / 1e9 / copy:.2f} TB/s read+write)")


if __name__ == "__main__":
    main()
