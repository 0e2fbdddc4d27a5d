package image

// The cut quality's sixth evidence: a part as pale as the backdrop left
// outside the cut whose outline the image still shows (paleParts). A
// white lid dropped from a tumbler, a white box dropped from a pile, a
// bicycle's tube dropped from its frame: the part's colour is the
// backdrop's, so neither missedParts nor leftStrands sees it, but its
// outline is a faint edge that, with the cut's own outline, closes round
// it. What the backdrop outside the cut holds that the frame cannot reach
// once faint edges are walls, next to the cut and no darker shade of the
// backdrop (a shadow's pocket), is such a part. (In the manner of the
// region terms of Kohlberger et al., "Evaluating segmentation error without
// ground truth", MICCAI 2012: the cut's consistency with the image outside
// it.)

// paleWall is the least step of colour (over 4 grid pixels, each side the
// mean of 3 along the edge, summed over the channels) that walls a pale
// part in, or paleWallNoise times the backdrop's noise if more.
const (
	paleWall      = 9
	paleWallNoise = 5
)

// paleWeight and paleFree: the pale parts' area over the cut's beyond
// paleFree weighs paleWeight. On the sets with truth good cuts leave at
// most 0.011 (a white vase on a seamless sweep), bad ones 0.059 (a pile
// without its white box), 0.067 (a rose perfume without its pale foot),
// 0.12 (a tumbler without its white lid, a clear tumbler) and more.
const (
	paleWeight = 60
	paleFree   = 0.03
)

// paleMin is the fewest grid pixels a pocket holds to be a part, not a
// gap in a textured backdrop's grain.
const paleMin = 9

// paleParts is the area of the pale parts left outside the cut (see above)
// over the cut's area.
func paleParts(v partsView) float64 {
	pockets, grain := palePockets(v)
	pale := 0
	for _, p := range pockets {
		pale += p.light
	}
	return float64(max(pale-grain, 0)) / float64(max(v.area, 1))
}

// palePocket is one pale part's pocket beside the cut: its grid pixels,
// those no shade of the backdrop (light) and its rim's pixels on an edge
// of its own (own) or beside the cut (cutSide).
type palePocket struct {
	px                  []int
	light, own, cutSide int
}

// palePockets finds the pockets beside the cut that the frame cannot reach
// once faint edges are walls (see above), and grain: as many light pixels
// as a textured backdrop's own pockets would hold beside the cut (its
// pockets per pixel away from the cut, times the pixels beside it).
func palePockets(v partsView) (pockets []palePocket, grain int) {
	W, H := v.W, v.H
	if W < 8 || H < 8 {
		return nil, 0
	}
	free := paleFreeOf(v) // neither kept nor an edge
	defer boolPool.put(free)
	reach := outerBackground(free, W, H)
	defer boolPool.put(reach)
	near := dilate(v.kept, W, H, 3)
	defer boolPool.put(near)
	ring := dilate(v.kept, W, H, paleRing)
	defer boolPool.put(ring)
	seen := boolPool.get(W * H)
	defer boolPool.put(seen)
	clear(seen)
	away := 0 // light pixels of the pockets away from the cut
	for i := range W * H {
		if seen[i] || !free[i] || reach[i] || !v.outside[i] {
			continue
		}
		comp := []int{i}
		seen[i] = true
		touch, light := false, 0
		for h := 0; h < len(comp); h++ {
			j := comp[h]
			touch = touch || near[j]
			if !v.darkShade(j) {
				light++
			}
			forNeighbours(j, W, H, func(n int) {
				if free[n] && !seen[n] && !reach[n] {
					seen[n] = true
					comp = append(comp, n)
				}
			})
		}
		own, cutSide := 0, 0 // the pocket's rim: on an edge of its own, or the cut's
		for _, j := range comp {
			forNeighbours(j, W, H, func(n int) {
				switch {
				case free[n]:
				case near[n]:
					cutSide++
				default:
					own++
				}
			})
		}
		switch {
		case len(comp) < paleMin || float64(own) < paleOwnRim*float64(own+cutSide):
		case touch:
			pockets = append(pockets, palePocket{px: comp, light: light, own: own, cutSide: cutSide})
		default:
			away += light
		}
	}
	// A textured backdrop (a knit, wood) walls pockets in everywhere: as
	// many as it holds per pixel away from the cut are its grain.
	nearN, farN := 0, 0
	for i := range W * H {
		if v.outside[i] {
			if ring[i] {
				nearN++
			} else {
				farN++
			}
		}
	}
	if farN > 0 {
		grain = away * nearN / farN
	}
	return pockets, grain
}

// paleFreeOf is every grid pixel neither kept nor on an edge: a step of
// colour of at least paleWall (or paleWallNoise × the noise) across it.
// It goes back to the pool with boolPool.put.
func paleFreeOf(v partsView) []bool {
	W, H := v.W, v.H
	col := make([][3]float64, W*H)
	for i := range col {
		col[i], _ = v.colour(i)
	}
	wall := max(paleWall, paleWallNoise*v.noise)
	free := boolPool.get(W * H)
	for i := range W * H {
		free[i] = !v.kept[i]
		x, y := i%W, i/W
		if !free[i] || x < 3 || y < 3 || x >= W-3 || y >= H-3 {
			continue
		}
		for _, d := range [2][2]int{{1, W}, {W, 1}} { // across, along
			s := 0.0
			for c := range 3 {
				sum := 0.0
				for k := -1; k <= 1; k++ {
					sum += col[i+2*d[0]+k*d[1]][c] - col[i-2*d[0]+k*d[1]][c]
				}
				s += max(sum, -sum) / 3
			}
			if s >= wall {
				free[i] = false
				break
			}
		}
	}
	return free
}

// paleRing is how far from the cut (grid px) a pocket beside it reaches,
// for the grain's share: the backdrop's pockets per pixel away from the
// cut, times the pixels within paleRing of it.
const paleRing = 12

// paleOwnRim is the least share of a pocket's rim on an edge of its own
// (farther than 3 grid px from the cut) for it to be a part: a part's
// outline closes most of it (a lid, a box, a tube); the floor between a
// stool's legs is closed by the legs and a short stretch of the floor's
// blotches or a shadow's edge.
const paleOwnRim = 0.75
