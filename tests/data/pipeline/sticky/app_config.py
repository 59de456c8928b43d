kernel_1 = {

	"kernel_name"			: "sticky_flags",
	"num_registers"			: 16,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 1,
	"block_size"			: 32,
	"cuda_stream_id"		: 0
}

app_kernels_id = [1]