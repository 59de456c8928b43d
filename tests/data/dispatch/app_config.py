kernel_1 = {

	"kernel_name"			: "waves",
	"num_registers"			: 16,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 10,
	"block_size"			: 1024,
	"cuda_stream_id"		: 0
}

kernel_2 = {

	"kernel_name"			: "tie",
	"num_registers"			: 16,
	"shared_mem_bytes"		: 65536,
	"grid_size"			: 4,
	"block_size"			: 1024,
	"cuda_stream_id"		: 0
}

kernel_3 = {

	"kernel_name"			: "first_fill",
	"num_registers"			: 16,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 3,
	"block_size"			: 1024,
	"cuda_stream_id"		: 0
}

kernel_4 = {

	"kernel_name"			: "too_much_smem",
	"num_registers"			: 16,
	"shared_mem_bytes"		: 100000,
	"grid_size"			: 2,
	"block_size"			: 1024,
	"cuda_stream_id"		: 0
}

kernel_5 = {

	"kernel_name"			: "bad_last_block",
	"num_registers"			: 16,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 10,
	"block_size"			: 1024,
	"cuda_stream_id"		: 0
}

app_kernels_id = [1, 2, 3, 4, 5]