cmd_drivers/pcn_transport/built-in.a := rm -f drivers/pcn_transport/built-in.a;  ar cDPrST drivers/pcn_transport/built-in.a
