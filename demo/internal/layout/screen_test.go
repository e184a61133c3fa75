package layout_test

import (
	"image"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/moonmind-ai/moonmind/demo/internal/layout"
)

func TestFit(t *testing.T) {
	cases := []struct {
		name      string
		w, h      int
		dsf       float64
		field     image.Rectangle
		text      float64
		panelSize [2]float64
		reason    string
	}{
		{"default window", 1280, 720, 1, image.Rect(0, 0, 864, 720), 1, [2]float64{416, 720},
			"the default size is the field and the panel at scale 1"},
		{"default page, high density", 2560, 1440, 2, image.Rect(0, 0, 1728, 1440), 2, [2]float64{416, 720},
			"twice the pixels, the same layout"},
		{"no size yet", 0, 0, 2, image.Rect(0, 0, 1728, 1440), 2, [2]float64{416, 720},
			"counts as the default size at the display's scale"},
		{"wide page", 3200, 1400, 2, image.Rect(0, 0, 1680, 1400), 2, [2]float64{760, 700},
			"the field fills the height (1400/720 = 1.94); the panel takes the rest, 760 logical pixels of text at scale 2"},
		{"tall page", 1600, 2000, 2, image.Rect(0, 550, 1080, 1450), 2, [2]float64{260, 1000},
			"the field fills its width (1600 - 520) and is centred in the height; the panel is 520/1600 of the width, full height"},
		{"larger window", 1920, 1080, 1, image.Rect(0, 0, 1296, 1080), 1.5, [2]float64{416, 720},
			"the default layout at 1.5"},
		{"small window", 640, 360, 1, image.Rect(0, 0, 432, 360), 1, [2]float64{208, 360},
			"text never below its size at scale 1: the panel is narrower in characters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := layout.Fit(c.w, c.h, c.dsf)
			assert.Equal(t, c.field, s.Field, c.reason)
			assert.Equal(t, c.text, s.TextScale, c.reason)
			assert.InDelta(t, float64(s.Field.Dx())/layout.FieldW, s.FieldScale, 1e-12, "the field's scale is its width over FieldW")
			w, h := s.PanelSize()
			assert.Equal(t, c.panelSize, [2]float64{w, h}, c.reason)
			assert.Equal(t, s.Field.Max.X, s.Panel.Min.X, "the panel starts where the field ends")
			assert.Equal(t, image.Rect(s.Field.Max.X, 0, s.W, s.H), s.Panel, "the panel reaches the right edge, full height")
			assert.LessOrEqual(t, s.Field.Max.Y, s.H, "the field is inside the screen")
		})
	}
}

func TestFitKeepsTheFieldsAspect(t *testing.T) {
	for w := 200; w <= 4000; w += 190 {
		for h := 200; h <= 3000; h += 170 {
			s := layout.Fit(w, h, 2)
			assert.InDelta(t, float64(layout.FieldH)/layout.FieldW, float64(s.Field.Dy())/float64(s.Field.Dx()), 2.0/float64(s.Field.Dx()),
				"%dx%d: the field keeps its aspect", w, h)
			assert.True(t, s.Field.In(image.Rect(0, 0, w, h)), "%dx%d: the field %v is on the screen", w, h, s.Field)
			assert.Positive(t, s.Panel.Dx(), "%dx%d: there is a panel", w, h)
			assert.GreaterOrEqual(t, s.TextScale, 2.0, "%dx%d: text at least FontSize device-independent pixels", w, h)
		}
	}
}

func TestPanelChars(t *testing.T) {
	assert.Equal(t, 55, layout.PanelChars(416, 8), "the default panel: 400 pixels of 7.2-pixel characters")
	assert.Equal(t, 1, layout.PanelChars(10, 8), "at least one")
}
