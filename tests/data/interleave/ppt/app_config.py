kernel_1 = {

	"kernel_name"			: "blocks",
	"num_registers"			: 32,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 4,
	"block_size"			: 64,
	"cuda_stream_id"		: 0
}

kernel_2 = {

	"kernel_name"			: "classify",
	"num_registers"			: 32,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 1,
	"block_size"			: 32,
	"cuda_stream_id"		: 0
}

app_kernels_id = [1, 2]