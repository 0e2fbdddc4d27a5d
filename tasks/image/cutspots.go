package image

// Small enclosed regions the flood made background although they are not
// the backdrop (a shirt's grey buttons, cut off from the rest of the
// background by the product): a hole shows the backdrop through the
// product, so its colour is the backdrop's (near it); a region of its
// own colour, small and enclosed, is a part of the product.

// keepOwnSpots gives back to the product (isBg false) each background
// region that does not reach the frame, is small (under a thousandth of
// the image) and is a third or more off the backdrop (a hole's pixels are
// near it but for its rim, mixed with the product round it).
func (st *cutState) keepOwnSpots(isBg []bool) {
	W, H, n := st.W, st.H, st.n
	outside := boolPool.get(n)
	defer boolPool.put(outside)
	clear(outside)
	seeds := borderSeeds(W, H)
	var queue []int32
	for _, i := range seeds {
		if isBg[i] && !outside[i] {
			outside[i] = true
			queue = append(queue, int32(i))
		}
	}
	grow := func(member func(j int) bool, mark []bool) {
		for k := 0; k < len(queue); k++ {
			st.neighbours(int(queue[k]), func(j int) {
				if member(j) && !mark[j] {
					mark[j] = true
					queue = append(queue, int32(j))
				}
			})
		}
	}
	grow(func(j int) bool { return isBg[j] }, outside)
	most := max(16, n/1000)
	for i := range n {
		if !isBg[i] || outside[i] {
			continue
		}
		queue = append(queue[:0], int32(i))
		outside[i] = true
		grow(func(j int) bool { return isBg[j] }, outside)
		if len(queue) > most {
			continue
		}
		near := 0
		for _, j := range queue {
			if st.near[j] {
				near++
			}
		}
		if 3*(len(queue)-near) < len(queue) {
			continue // it shows the backdrop: a hole (its rim mixed with the product)
		}
		for _, j := range queue {
			isBg[j] = false
		}
	}
}
