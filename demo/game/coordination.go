package game

import (
	"fmt"
	"strings"

	"github.com/moonmind-ai/moonmind/demo/sim"
)

// coordinationLines adds to the panel what the soldier's squad knows of
// the enemy, the smart object it holds, and who holds which object.
func coordinationLines(p *panelText, c sim.Coordination) {
	squad := "squad: no enemy reported yet"
	if c.Sightings > 0 {
		squad = fmt.Sprintf("squad: enemy reported at %s, %s (%s reports)", num(c.EnemyX), num(c.EnemyY), num(c.Sightings))
	}
	p.add(squad, textMain, 0)
	claims := "none"
	if len(c.Claims) > 0 {
		claims = strings.Join(c.Claims, ", ")
	}
	p.add("holds "+orDash(c.Holds)+"; claims: "+claims, textDim, 0)
}
