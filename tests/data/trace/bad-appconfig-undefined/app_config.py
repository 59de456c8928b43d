kernel_1 = {

	"kernel_name"			: "a",
	"num_registers"			: 8,
	"shared_mem_bytes"		: 0,
	"grid_size"			: 1,
	"block_size"			: 32,
	"cuda_stream_id"		: 0
}

kernel_2 = {"kernel_name": "b", "num_registers": 8, "shared_mem_bytes": 0, "grid_size": 1, "block_size": 32, "cuda_stream_id": 0}

# kernel_3 ended after the tracer had stopped
app_kernels_id = [1, 2, 3]