kernel_1 = {

	"kernel_name"			: "copy<{int, float}>",
	"num_registers"			: 24,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 3,
	"block_size"			: 64,
	"cuda_stream_id"		: 18446744073709551615
}

kernel_7 = {

	"kernel_name"			: "not listed",
	"num_registers"			: 1,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 1,
	"block_size"			: 32,
	"cuda_stream_id"		: 0
}

kernel_2 = {

	"kernel_name"			: "second",
	"num_registers"			: 8,
	"shared_mem_bytes"		: 1024,
	"grid_size"			: 2,
	"block_size"			: 32,
	"cuda_stream_id"		: 0
}

app_kernels_id = [2, 1]