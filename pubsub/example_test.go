package pubsub_test

import (
	"context"
	"fmt"

	"github.com/fastmcp-go/fastmcp/pubsub"
)

func Example() {
	bus := pubsub.NewMemory(nil)
	defer bus.Close()
	got := make(chan string)
	unsubscribe, err := bus.Subscribe(context.Background(), "resources/updated", func(msg []byte) {
		got <- string(msg)
	})
	if err != nil {
		panic(err)
	}
	defer unsubscribe()
	if err := bus.Publish(context.Background(), "resources/updated", []byte("file:///report.csv")); err != nil {
		panic(err)
	}
	fmt.Println(<-got)
	// Output: file:///report.csv
}
