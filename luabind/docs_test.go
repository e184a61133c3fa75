package luabind_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLuaAPIDocMatchesAnnotations checks that docs/lua-api.md, the
// designers' reference, names every npc method and every field of every
// class that the LuaLS annotations (scripts/types/moonmind.lua) declare.
func TestLuaAPIDocMatchesAnnotations(t *testing.T) {
	ann, err := os.ReadFile(filepath.Join("..", "scripts", "types", "moonmind.lua"))
	require.NoError(t, err)
	doc, err := os.ReadFile(filepath.Join("..", "docs", "lua-api.md"))
	require.NoError(t, err)
	text := string(doc)

	methods := regexp.MustCompile(`(?m)^function NPC:(\w+)\(`).FindAllStringSubmatch(string(ann), -1)
	require.GreaterOrEqual(t, len(methods), 10, "the annotations declare the npc methods")
	for _, m := range methods {
		assert.Contains(t, text, "npc:"+m[1]+"(", "docs/lua-api.md documents npc:%s", m[1])
	}

	class := ""
	fields := 0
	for _, line := range strings.Split(string(ann), "\n") {
		if c, ok := strings.CutPrefix(line, "---@class "); ok {
			class = strings.Fields(c)[0]
			continue
		}
		f, ok := strings.CutPrefix(line, "---@field ")
		if !ok || class == "" {
			continue
		}
		name := strings.TrimSuffix(strings.Fields(f)[0], "?")
		fields++
		found := false
		for _, form := range []string{"`" + name + "`", "`" + name + " ", "`" + name + "(", "." + name, name + " ="} {
			found = found || strings.Contains(text, form)
		}
		assert.True(t, found, "docs/lua-api.md documents field %s of %s", name, class)
	}
	assert.Greater(t, fields, 60, "the annotations declare the role table's fields")
}
