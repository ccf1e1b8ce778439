module example.com/perfregbench

go 1.19
