// msa-bench: the in-process half of scripts/bench.
//
//   msa-bench serve --devices N [--sms N] [--faults SPEC] --registry FILE --origins FILE
//       serves a simulated fleet until stdin closes; stdin line "inject K" gives every device
//       K new incoming messages and answers "ok"; "faults SPEC" replaces every device's faults.
//   msa-bench search --home DIR --reps N QUERY...   archive query latencies (JSON)
//   msa-bench render --home DIR --fleet-json FILE --reps N   render times (JSON)
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  let options = try BenchOptions(arguments.dropFirst())
  switch arguments.first {
  case "serve": try await BenchServer.run(options)
  case "search": try BenchSearch.run(options)
  case "render": try BenchRender.run(options)
  default: throw BenchError("usage: msa-bench serve|search|render [options]")
  }
} catch {
  BenchOutput.error("msa-bench: \(error)")
  exit(1)
}
