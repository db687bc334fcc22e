import HeritageLens
import Foundation

/// An SVG of a bench run: per-frame latency over time stacked by stage, and the latency histogram
/// with the frame budget marked. Opens in any browser.
public enum LatencyPlot {
    static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                          "#9c755f", "#bab0ac"]

    static func n(_ v: Double) -> String { String(format: "%.2f", v) }

    public static func svg(runs: [BenchRun]) -> String {
        let width = 900.0, panel = 260.0, gap = 60.0
        var out = ""
        var y0 = 30.0
        for run in runs {
            let frames = run.recorder.frames
            guard !frames.isEmpty else { continue }
            let names = run.recorder.stageOrder.filter { $0 != "sinks" }
            let maxTotal = max(run.budgetMilliseconds * 1.2, frames.map(\.total).max() ?? 1)
            let plotW = width * 0.6 - 60, x0 = 50.0
            let sx = plotW / Double(max(1, frames.count)), sy = (panel - 40) / maxTotal
            out += "<text x=\"\(x0)\" y=\"\(y0 - 8)\" font-size=\"14\" font-weight=\"bold\">tier \(run.tier): per-frame latency stacked by stage (ms)</text>\n"
            for (k, frame) in frames.enumerated() {
                var acc = 0.0
                for (name, ms) in frame.stages where name != "sinks" {
                    let colour = palette[(names.firstIndex(of: name) ?? 0) % palette.count]
                    let h = ms * sy
                    out += "<rect x=\"\(n(x0 + Double(k) * sx))\" y=\"\(n(y0 + panel - 40 - (acc + ms) * sy))\" width=\"\(n(max(0.5, sx)))\" height=\"\(n(h))\" fill=\"\(colour)\"/>\n"
                    acc += ms
                }
            }
            let by = y0 + panel - 40 - run.budgetMilliseconds * sy
            out += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"6 4\"/>\n", x0, by, x0 + plotW, by)
            out += String(format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">budget %.1f ms</text>\n", x0 + plotW - 90, by - 4, run.budgetMilliseconds)
            out += String(format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">0</text><text x=\"5\" y=\"%.1f\" font-size=\"11\">%.0f</text>\n",
                          x0 - 12, y0 + panel - 38, y0 + 10, maxTotal)
            out += String(format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">frames 0-%d</text>\n", x0, y0 + panel - 22, frames.count - 1)
            for (i, name) in names.enumerated() {
                out += "<rect x=\"\(n(x0 + Double(i) * 96))\" y=\"\(n(y0 + panel - 12))\" width=\"10\" height=\"10\" fill=\"\(palette[i % palette.count])\"/>"
                    + "<text x=\"\(n(x0 + Double(i) * 96 + 14))\" y=\"\(n(y0 + panel - 3))\" font-size=\"11\">\(name)</text>\n"
            }
            // Histogram of end-to-end latency.
            let hx = width * 0.62, hw = width * 0.35
            let bins = 30, binWidth = maxTotal / Double(bins)
            var counts = [Int](repeating: 0, count: bins)
            for f in frames { counts[min(bins - 1, Int(f.total / binWidth))] += 1 }
            let top = Double(counts.max() ?? 1)
            out += "<text x=\"\(hx)\" y=\"\(y0 - 8)\" font-size=\"14\" font-weight=\"bold\">end-to-end histogram</text>\n"
            for (i, c) in counts.enumerated() where c > 0 {
                let h = Double(c) / top * (panel - 40)
                out += String(format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#4e79a7\"/>\n",
                              hx + Double(i) * hw / Double(bins), y0 + panel - 40 - h, hw / Double(bins) - 1, h)
            }
            let bx = hx + run.budgetMilliseconds / maxTotal * hw
            out += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e15759\" stroke-width=\"2\"/>\n", bx, y0, bx, y0 + panel - 40)
            out += String(format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">0 ms</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%.0f ms</text>\n",
                          hx, y0 + panel - 25, hx + hw - 40, y0 + panel - 25, maxTotal)
            y0 += panel + gap
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(y0))\" font-family=\"sans-serif\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + out + "</svg>\n"
    }
}
