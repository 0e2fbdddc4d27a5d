package image

// eleventhFloors and eleventhMean are the eleventh set's figures from one
// run of the cut-out as the branch eleventh had it when the set was
// written (24d7528), less a margin of 0.01: IoU and light parts 0.01
// under, enclosed backdrop, glass alpha error and shadow kept 0.01 over
// (a floor of IoU or light under 0 is 0). They record today's behaviour,
// to catch regressions — not the targets (IoU ≥ 0.93 each, mean ≥
// 0.97, light parts ≥ 0.95, enclosed backdrop ≤ 0.05). That run
// (BenchmarkCutoutEleventh, one pass): mean IoU 0.724, lowest 0 (the
// kettlebell, refused), light parts 0.762, enclosed backdrop 0.200, glass
// alpha error 0.231. Good: the hat on linen, the ring box, the speaker
// under a hard sun, the dog drawing, the tin on marble, the lamp at the
// top edge, the beige bag and its handle holes (0.99 to 1.00), the amber
// bottle's silhouette (0.99), the mint bottle (0.95, light 0.958), the
// small earbuds case (0.95). Bad: the towel on marble 0.0001 (nothing of
// it kept), the clear tea cup 0.03, the sneaker off the centre 0.19
// (light 0.17), the plate cut by the frame 0.31 (light 0.32), the clear
// jar 0.76, the gold chain 0.76, the terracotta vase on terrazzo 0.82,
// the earphones 0.85, the teapot 0.89 (its handle hole kept, 1.00). The
// kettlebell on felt was refused ("no edge separates it from the backdrop
// all round"); the napkin with no edge was refused ("no object was found:
// nothing in the image differs from its backdrop"). An IoU floor of 0 on
// a refused shot is in eleventhRefused; a future cut-out that cuts it
// instead must move it out of eleventhRefused.
var (
	eleventhFloors = map[string]fifthFloor{
		"p11_teapot_white_spout_hole_q82":       {iou: 0.884, light: 0.981, hole: 1, shadow: 0.153},
		"p11_sneaker_white_offcentre_q80":       {iou: 0.178, light: 0.157, hole: 1, shadow: 0.014},
		"p11_towel_white_folded_marble_q78":     {iou: 0, light: 0, hole: 1, shadow: 0.010},
		"p11_earbudscase_white_small_q88":       {iou: 0.939, light: 0.971, hole: 1, shadow: 0.024},
		"p11_plate_white_bottom_edge_linen_q86": {iou: 0.301, light: 0.312, hole: 1, shadow: 0.010},
		"p11_bottle_mint_cream_q84":             {iou: 0.943, light: 0.948, hole: 0.010, shadow: 0.010},
		"p11_bag_beige_ivory_handles_q80":       {iou: 0.982, light: 0.990, hole: 0.010, shadow: 0.010},
		"p11_dog_drawing_whitefill_q74":         {iou: 0.985, light: 0.990, hole: 1},
		"p11_hat_straw_sand_linen_png":          {iou: 0.988, light: 0.990, hole: 1, shadow: 0.010},
		"p11_jar_clear_steel_lid_q86":           {iou: 0.745, hole: 1, glassMAE: 0.252, shadow: 0.010},
		"p11_bottle_amber_glass_png":            {iou: 0.979, hole: 1, glassMAE: 0.167, shadow: 0.010},
		"p11_cup_clear_glass_handle_q80":        {iou: 0.015, hole: 0.010, glassMAE: 0.303, shadow: 0.010},
		"p11_kettlebell_black_felt_q78":         {iou: 0, hole: 1, glassMAE: 1, shadow: 1},
		"p11_speaker_orange_hardsun_q72":        {iou: 0.985, hole: 1, shadow: 0.010},
		"p11_vase_terracotta_terrazzo_q76":      {iou: 0.811, hole: 1, shadow: 0.097},
		"p11_tin_green_marble_q84":              {iou: 0.984, hole: 1, shadow: 0.010},
		"p11_chain_gold_loop_linen_png":         {iou: 0.752, hole: 0.010, shadow: 0.010},
		"p11_earphones_cable_palegrey_q84":      {iou: 0.841, light: 0.958, hole: 1, shadow: 0.032},
		"p11_lamp_pendant_top_edge_q82":         {iou: 0.982, light: 0.987, hole: 1},
		"p11_ringbox_small_corner_q90":          {iou: 0.988, hole: 1, shadow: 0.010},
	}
	eleventhMean = 0.713
	// eleventhRefused are the shots the cut-out refused with a reason in
	// that run: the kettlebell on felt. Today's behaviour, recorded, not a
	// goal.
	eleventhRefused = map[string]bool{"p11_kettlebell_black_felt_q78": true}
)
