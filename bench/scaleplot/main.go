// Command scaleplot draws the planner's scaling curves from benchmark
// results: the best (least) time of BenchmarkPlannerScale's runs against
// the number of actions, one line per depth, on log-log axes. The best of
// several runs is the figure a busy shared machine inflates least. Run it from the
// repository root after bash bench/run:
//
//	go run ./bench/scaleplot -in bench/results.txt -out bench/scaling.png
//
// Not run by CI.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image/color"
	"os"
	"regexp"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

var (
	line    = regexp.MustCompile(`^BenchmarkPlannerScale/actions=(\d+)/depth=(\d+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)
	planned = regexp.MustCompile(`\s([\d.]+) planned`)
)

func main() {
	in := flag.String("in", "bench/results.txt", "benchmark results (go test -bench output)")
	out := flag.String("out", "bench/scaling.png", "the PNG to write")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "scaleplot:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	// samples[depth][actions] = times in µs
	samples := map[int]map[int][]float64{}
	failed := map[[2]int]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		d, _ := strconv.Atoi(m[2])
		ns, _ := strconv.ParseFloat(m[3], 64)
		if p := planned.FindStringSubmatch(sc.Text()); p != nil && p[1] == "0" {
			failed[[2]int{n, d}] = true
		}
		if samples[d] == nil {
			samples[d] = map[int][]float64{}
		}
		samples[d][n] = append(samples[d][n], ns/1000)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(samples) == 0 {
		return fmt.Errorf("%s: no BenchmarkPlannerScale results", in)
	}
	p := plot.New()
	p.Title.Text = "moonmind GOAP planner: time per plan (best of the runs)"
	p.X.Label.Text = "relevant actions"
	p.Y.Label.Text = "µs per plan"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{}, plot.LogTicks{}
	p.Legend.Top, p.Legend.Left = true, true
	colors := []color.RGBA{{R: 0x1f, G: 0x77, B: 0xb4, A: 255}, {R: 0xff, G: 0x7f, B: 0x0e, A: 255}, {R: 0x2c, G: 0xa0, B: 0x2c, A: 255}, {R: 0xd6, G: 0x27, B: 0x28, A: 255}}
	depths := make([]int, 0, len(samples))
	for d := range samples {
		depths = append(depths, d)
	}
	slices.Sort(depths)
	for i, d := range depths {
		var pts plotter.XYs
		ns := make([]int, 0, len(samples[d]))
		for n := range samples[d] {
			ns = append(ns, n)
		}
		slices.Sort(ns)
		for _, n := range ns {
			pts = append(pts, plotter.XY{X: float64(n), Y: best(samples[d][n])})
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		c := colors[i%len(colors)]
		l.Color, s.Color = c, c
		name := "depth " + strconv.Itoa(d)
		for _, n := range ns {
			if failed[[2]int{n, d}] {
				name += " (" + strconv.Itoa(n) + ": budget spent)"
			}
		}
		p.Add(l, s)
		p.Legend.Add(name, l, s)
	}
	// Linear growth for reference, through the first point of the lowest depth.
	first := samples[depths[0]]
	var n0 int
	for n := range first {
		if n0 == 0 || n < n0 {
			n0 = n
		}
	}
	y0 := best(first[n0])
	ref, err := plotter.NewLine(plotter.XYs{{X: float64(n0), Y: y0}, {X: 1000, Y: y0 * 1000 / float64(n0)}})
	if err != nil {
		return err
	}
	ref.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(ref)
	p.Legend.Add("linear in actions", ref)
	return p.Save(16*vg.Centimeter, 11*vg.Centimeter, out)
}

func best(xs []float64) float64 { return slices.Min(xs) }
