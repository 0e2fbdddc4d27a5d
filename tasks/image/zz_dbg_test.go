package image

import (
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	for _, s := range append(shineShots(), append(fifthShots(), sixthShots()...)...) {
		if !strings.Contains(s.name, os.Getenv("SHOT")) {
			continue
		}
		println("==", s.name)
		measureFifth(t, []shot{s}, "")
	}
	for _, s := range append(ribbonScenes(), append(variedScenes(false), moreTunedScenes()...)...) {
		if !strings.Contains(s.name, os.Getenv("SHOT")) {
			continue
		}
		println("==", s.name)
		measureScenes(t, []scene{s}, "")
	}
}
