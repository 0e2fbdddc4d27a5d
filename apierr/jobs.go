package apierr

import "net/http"

// jobEntries are the errors a job ends with, or a job's result answers, and
// those of a service that cannot do the work now.
var jobEntries = []Entry{
	{
		StartTimeout,
		TypeInternal,
		http.StatusServiceUnavailable,
		true,
		"The job could not start before its start deadline.",
		"Submit again, or send a longer X-Service-Start-Timeout.",
	},
	{
		Cancelled,
		TypeConflict,
		http.StatusConflict,
		false,
		"The job was cancelled.",
		"Submit a new job if you still need the result.",
	},
	{
		JobFailed,
		TypeConflict,
		http.StatusConflict,
		false,
		"The job failed; it has no result.",
		"Read the job's error for the reason.",
	},
	{
		ResultNotReady,
		TypeConflict,
		http.StatusConflict,
		false,
		"The job has not finished yet.",
		"Poll the job, wait with Prefer: wait=N, or use a webhook.",
	},
	{
		ProcessingFailed,
		TypeInternal,
		http.StatusUnprocessableEntity,
		false,
		"The task could not produce its outputs.",
		"Check the input; submit again with other settings.",
	},
	{
		ContentRefused,
		TypeInvalidRequest,
		http.StatusUnprocessableEntity,
		false,
		"The prompt or an image was refused by the content checks.",
		"Change the prompt or the images.",
	},
	{
		CapacityBusy,
		TypeInternal,
		http.StatusServiceUnavailable,
		true,
		"The job could not get capacity in time.",
		"Submit again later.",
	},
	{
		Internal,
		TypeInternal,
		http.StatusInternalServerError,
		true,
		"The service failed on its side.",
		"Retry; quote the request_id if it persists.",
	},
	{
		ServiceUnavailable,
		TypeInternal,
		http.StatusServiceUnavailable,
		true,
		"A dependency of the service did not answer in time, or a job's model server cannot serve now (its " +
			"model failed to load; nothing charged); for a submit the job id is kept.",
		"Retry the same request with the same Idempotency-Key; submit a failed job again after retry_after.",
	},
}

// warningEntries are not failures: notes inside a job summary about
// something not produced as asked.
var warningEntries = []Entry{
	{
		OutputNotProduced,
		TypeWarning,
		0,
		false,
		"An output that was asked for was not produced; it was not charged.",
		"Nothing to fix; submit again for the missing outputs if needed.",
	},
	{
		ColourAdjusted,
		TypeWarning,
		0,
		false,
		"A colour was too close to another and was adjusted to stay visible.",
		"Pick colours further apart to keep them exact.",
	},
	{
		LowResolution,
		TypeWarning,
		0,
		false,
		"An image was enlarged past its resolution; the message gives the effective dpi it prints at.",
		"Send a larger image or ask for a lower dpi.",
	},
	{
		ArtworkCropped,
		TypeWarning,
		0,
		false,
		"Part of the artwork was cut, as asked (fit cover); the message gives how much of its width and height.",
		"Leave fit at its default (contain) to keep all of the artwork.",
	},
	{
		FineLines,
		TypeWarning,
		0,
		false,
		"A film has lines thinner than a screen holds; the message names the ink, the width in px and mm and the limit.",
		"Thicken the lines, or print larger (width_mm) so they reach the limit.",
	},
	{
		TileNotSeamless,
		TypeWarning,
		0,
		false,
		"The tile does not repeat seamlessly: its opposite edges differ, so the loop shows a seam; " +
			"the message says by how much.",
		"Send a seamless tile (pattern.generate makes them), or send mirror true to mirror it into one.",
	},
	{
		GIFReduced,
		TypeWarning,
		0,
		false,
		"A GIF would have passed the size its task's docs give, so it was made at a lower frame rate or with fewer " +
			"colours; the message says which, its size, and whether it is still over.",
		"Ask for format mp4 (a fraction of the size at full quality), a smaller size or a shorter loop.",
	},
	{
		CutoutUncertain,
		TypeWarning,
		0,
		false,
		"A cut-out's outline runs too little along edges the image shows (or is in pieces): it may have dropped part " +
			"of the product or kept part of the backdrop or its shadow. It was delivered and not charged; the message " +
			"names the output and its quality figure.",
		"Look at the cut-out before using it; shoot the product on a plainer backdrop, with its outline clear of its " +
			"shadow.",
	},
}
