// ozz-animation's SkinningJob timed as `skinlab --bench cpu` times the fast job: a chain
// of 40 joints, four influences a vertex on neighbouring joints, positions (p), with
// normals (pn) and with tangents (pnt), one thread, the best of eleven rounds of calls
// lasting at least 4 ms each. Prints CSV rows as the bench does: kernel `ozz`.
// Built and run by scripts/ozz-beside against a checkout of ozz-animation.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ozz/base/maths/simd_math.h"
#include "ozz/geometry/runtime/skinning_job.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Nanoseconds per vertex for `vertices` vertices with `attributes` streams (1 to 3).
double ns_per_vertex(int vertices, int attributes) {
  using namespace ozz;
  const int joints = 40;
  std::vector<math::Float4x4> palette(joints);
  for (int j = 0; j < joints; ++j) {
    const auto at = math::simd_float4::Load(0.f, 0.1f * j, 0.f, 1.f);
    const auto turn = math::simd_float4::Load1(0.05f * j);
    palette[j] = math::Float4x4::Translation(at) *
                 math::Float4x4::FromAxisAngle(math::simd_float4::z_axis(), turn);
  }
  const size_t n = vertices;
  std::vector<uint16_t> indices(n * 4);
  std::vector<float> weights(n * 3);  // ozz restores the fourth: 1 - the others.
  std::vector<float> in[3], out[3];
  for (int a = 0; a < 3; ++a) {
    in[a].resize(n * 3);
    out[a].resize(n * 3);
  }
  for (size_t i = 0; i < n; ++i) {
    const int first = std::min<int>(joints - 4, int(i * (joints - 3) / n));
    for (int k = 0; k < 4; ++k) indices[i * 4 + k] = uint16_t(first + k);
    weights[i * 3 + 0] = 0.4f;
    weights[i * 3 + 1] = 0.3f;
    weights[i * 3 + 2] = 0.2f;
    for (int k = 0; k < 3; ++k) {
      in[0][i * 3 + k] = 0.001f * float(i) + float(k);
      in[1][i * 3 + k] = k == 0 ? 1.f : 0.f;
      in[2][i * 3 + k] = k == 1 ? 1.f : 0.f;
    }
  }
  geometry::SkinningJob job;
  job.vertex_count = vertices;
  job.influences_count = 4;
  job.joint_matrices = make_span(palette);
  job.joint_indices = make_span(indices);
  job.joint_indices_stride = 4 * sizeof(uint16_t);
  job.joint_weights = make_span(weights);
  job.joint_weights_stride = 3 * sizeof(float);
  const size_t stride = 3 * sizeof(float);
  job.in_positions = make_span(in[0]);
  job.in_positions_stride = stride;
  job.out_positions = make_span(out[0]);
  job.out_positions_stride = stride;
  if (attributes > 1) {
    job.in_normals = make_span(in[1]);
    job.in_normals_stride = stride;
    job.out_normals = make_span(out[1]);
    job.out_normals_stride = stride;
  }
  if (attributes > 2) {
    job.in_tangents = make_span(in[2]);
    job.in_tangents_stride = stride;
    job.out_tangents = make_span(out[2]);
    job.out_tangents_stride = stride;
  }
  if (!job.Run()) {
    std::fprintf(stderr, "ozz refused the job\n");
    std::exit(1);
  }
  const auto start = Clock::now();
  job.Run();
  const double once = std::max(seconds_since(start), 1e-9);
  const int repeats = std::clamp(int(0.004 / once) + 1, 1, 10000);
  double best = 1e30;
  for (int round = 0; round < 11; ++round) {
    const auto begun = Clock::now();
    for (int r = 0; r < repeats; ++r) job.Run();
    best = std::min(best, seconds_since(begun) / repeats);
  }
  return best * 1e9 / double(n);
}

}  // namespace

int main(int argc, char** argv) {
  const char* names[] = {"p", "pn", "pnt"};
  for (int i = 1; i < argc; ++i) {
    const int vertices = std::atoi(argv[i]);
    for (int a = 1; a <= 3; ++a) {
      std::printf("ozz,%s,1,%d,%.3f\n", names[a - 1], vertices,
                  ns_per_vertex(vertices, a));
    }
  }
}
